// The DeepSpeed releases dsls knows, oldest first: those of the per-release key table
// (tests/fixtures/catalog/deepspeed_keys.json, compiled in by analysis/CMakeLists.txt).
#pragma once

#include <string_view>
#include <vector>

namespace dsls::facts {

const std::vector<std::string_view>& deepspeedReleases();

}  // namespace dsls::facts

// A JSON Schema (draft 2020-12) of ds_config.json built from the catalog: types, allowed
// values, bounds, defaults, descriptions, deprecations, "auto" where HF Trainer or Accelerate
// fill it, and additionalProperties: false on the sections DeepSpeed validates strictly.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace dsls::analysis {

nlohmann::json configSchema();

}  // namespace dsls::analysis

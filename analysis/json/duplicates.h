// Duplicate keys among the members of one object: the parser's report, and the reuse of a
// document after a key was edited (json/reparse.h), find them the same way.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "analysis/json/document.h"

namespace dsls::json {

// (first, duplicate) member indices, in the order of the duplicates; a key seen among the
// first `earlier` members was reported before and is not again.
std::vector<std::pair<std::size_t, std::size_t>> duplicatePairs(const Member* members, std::size_t count,
                                                                std::size_t earlier = 0);

}  // namespace dsls::json

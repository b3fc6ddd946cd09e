// Key paths such as "zero_optimization.offload_param.device" or "optimizer.params.betas[0]".
#pragma once

#include <string>
#include <vector>

namespace dsls::json {

// Joins path parts with '.'; parts that are array indices ("[0]") attach without one.
std::string joinPath(const std::vector<std::string>& parts);

// The part naming array element `index`: "[index]".
std::string indexPart(std::size_t index);

}  // namespace dsls::json

// Part of precision-conflict: the model dtype x data_types.grad_accum_dtype x ZeRO combinations
// DeepSpeed's optimizer sanity check refuses (the rows of analysis/config/grad_accum_support.inc).
#pragma once

#include "analysis/config/rules/rule_support.h"

namespace dsls::config {

void checkGradAccumDtype(const RuleContext& ctx, std::vector<analysis::Finding>& out);

}  // namespace dsls::config

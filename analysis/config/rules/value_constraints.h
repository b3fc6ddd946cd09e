// The rows of constraints.inc, evaluated for the rule that owns them.
#pragma once

#include "analysis/config/rules/rule_support.h"

namespace dsls::config {

// Reports every row of `rule` that holds for the target release, whose condition holds and
// whose check the document fails.
void checkValueConstraints(RuleId rule, const RuleContext& ctx, std::vector<analysis::Finding>& out);

// The key's allowed values depend on the release (a OneOf row), so the catalog's list of
// current values is not the verdict.
bool hasOneOfConstraint(std::string_view path);

}  // namespace dsls::config

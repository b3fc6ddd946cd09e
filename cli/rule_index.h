// Every code `dsls check` can report, from the registries (never a list of its own):
// the ds_config rules and the log failures ("log-" + failure id), with their documentation.
#pragma once

#include "analysis/core/finding.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::cli {

struct RuleEntry {
  std::string code;
  analysis::Severity severity;
  std::string summary;
  bool log = false;  // a log failure rather than a ds_config rule
};

const std::vector<RuleEntry>& allRules();
const RuleEntry* findRuleEntry(std::string_view code);

// The page docs/rules/<code>.md as embedded at build time, if there is one.
std::optional<std::string_view> ruleDocumentation(std::string_view code);

// The documentation `dsls explain` prints: the page, or one built from the registry.
std::optional<std::string> explainRule(std::string_view code);

}  // namespace dsls::cli

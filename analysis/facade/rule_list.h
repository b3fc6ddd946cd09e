// Every code dsls can report, read from the registries (never a list of its own): the
// ds_config rules, then the training-log failures as "log-" + failure id.
#pragma once

#include "analysis/core/finding.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::analysis {

struct RuleEntry {
  std::string code;
  Severity severity;
  std::string summary;
  bool log = false;  // a log failure rather than a ds_config rule
};

// The ds_config rules in registry order, then the log failures in catalogue order.
const std::vector<RuleEntry>& ruleList();
const RuleEntry* findRuleEntry(std::string_view code);

// What the failure catalogue says about a log code ("log-cuda-oom"); nullopt for other codes.
struct FailureDescription {
  std::string_view mechanism;
  std::string_view fix;
  std::string_view verify;
  std::string_view configKeys;  // comma separated
  std::string_view ruleCodes;   // comma separated
};
std::optional<FailureDescription> failureDescription(std::string_view code);

}  // namespace dsls::analysis

#include "analysis/facade/rule_list.h"

#include "analysis/config/rule.h"
#include "analysis/logs/fingerprints/failure_catalog.h"

namespace dsls::analysis {

namespace {
constexpr std::string_view kLogPrefix = "log-";
}

const std::vector<RuleEntry>& ruleList() {
  static const std::vector<RuleEntry> rules = [] {
    std::vector<RuleEntry> out;
    for (const auto& r : config::configRules())
      out.push_back({std::string(r.code), r.severity, std::string(r.summary), false});
    for (const auto& f : logs::allFailures())
      out.push_back({std::string(kLogPrefix) + std::string(f.id), f.severity, std::string(f.title), true});
    return out;
  }();
  return rules;
}

const RuleEntry* findRuleEntry(std::string_view code) {
  for (const auto& r : ruleList())
    if (r.code == code) return &r;
  return nullptr;
}

std::optional<FailureDescription> failureDescription(std::string_view code) {
  if (!code.starts_with(kLogPrefix)) return std::nullopt;
  std::string_view id = code.substr(kLogPrefix.size());
  for (const auto& f : logs::allFailures())
    if (f.id == id) return FailureDescription{f.mechanism, f.fix, f.verify, f.configKeys, f.ruleCodes};
  return std::nullopt;
}

}  // namespace dsls::analysis

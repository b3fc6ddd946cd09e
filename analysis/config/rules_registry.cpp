// The registry and makeFinding, both from the rows of rules.inc.
#include "analysis/config/rule.h"

namespace dsls::config {

const std::vector<RuleInfo>& configRules() {
  static const std::vector<RuleInfo> rules = {
#define DSLS_RULE(Id, code, severity, group, summary, check) {ruleRow(RuleId::Id), check},
#include "analysis/facts/rules.inc"
  };
  return rules;
}

const RuleInfo* findRule(std::string_view code) {
  for (const auto& r : configRules())
    if (r.code == code) return &r;
  return nullptr;
}

analysis::Finding makeFinding(RuleId id, std::string message, analysis::TextRange range) {
  return makeFinding(id, defaultSeverity(id), std::move(message), range);
}

analysis::Finding makeFinding(RuleId id, analysis::Severity severity, std::string message,
                              analysis::TextRange range) {
  analysis::Finding f;
  f.code = std::string(ruleCode(id));
  f.severity = severity;
  f.message = std::move(message);
  f.range = range;
  return f;
}

}  // namespace dsls::config

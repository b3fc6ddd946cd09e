#include "cli/rule_index.h"

#include "analysis/config/rule.h"
#include "analysis/logs/failure_catalog.h"
#include "cli/check_options.h"
#include "cli/embedded_rule_docs.h"

#include <fmt/format.h>

namespace dsls::cli {

const std::vector<RuleEntry>& allRules() {
  static const std::vector<RuleEntry> rules = [] {
    std::vector<RuleEntry> out;
    for (const auto& r : config::configRules())
      out.push_back({std::string(r.code), r.severity, std::string(r.summary), false});
    for (const auto& f : logs::allFailures())
      out.push_back({"log-" + std::string(f.id), f.severity, std::string(f.title), true});
    return out;
  }();
  return rules;
}

const RuleEntry* findRuleEntry(std::string_view code) {
  for (const auto& r : allRules())
    if (r.code == code) return &r;
  return nullptr;
}

std::optional<std::string_view> ruleDocumentation(std::string_view code) {
  for (std::size_t i = 0; i < kEmbeddedRuleDocCount; ++i)
    if (kEmbeddedRuleDocs[i].code == code) return kEmbeddedRuleDocs[i].markdown;
  return std::nullopt;
}

std::optional<std::string> explainRule(std::string_view code) {
  if (auto page = ruleDocumentation(code)) return std::string(*page);
  const RuleEntry* entry = findRuleEntry(code);
  if (!entry) return std::nullopt;
  std::string out = fmt::format("# {}\n\nDefault severity: {}.\n\n{}\n", entry->code, severityWord(entry->severity),
                                entry->summary);
  if (entry->log) {
    const logs::FailureInfo& f = logs::failureInfo(std::string_view(entry->code).substr(4));
    auto section = [&](const char* title, std::string_view text) {
      if (!text.empty()) out += fmt::format("\n## {}\n\n{}\n", title, text);
    };
    section("What happens", f.mechanism);
    section("Fix", f.fix);
    section("How to verify", f.verify);
    section("Config keys", f.configKeys);
    section("Related ds_config rules", f.ruleCodes);
  }
  return out;
}

}  // namespace dsls::cli

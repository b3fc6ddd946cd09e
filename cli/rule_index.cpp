#include "cli/rule_index.h"

#include "analysis/facade/rule_list.h"
#include "cli/check_options.h"
#include "cli/embedded_rule_docs.h"

#include <fmt/format.h>

namespace dsls::cli {

std::optional<std::string_view> ruleDocumentation(std::string_view code) {
  for (std::size_t i = 0; i < kEmbeddedRuleDocCount; ++i)
    if (kEmbeddedRuleDocs[i].code == code) return kEmbeddedRuleDocs[i].markdown;
  return std::nullopt;
}

std::optional<std::string> explainRule(std::string_view code) {
  if (auto page = ruleDocumentation(code)) return std::string(*page);
  const analysis::RuleEntry* entry = analysis::findRuleEntry(code);
  if (!entry) return std::nullopt;
  std::string out = fmt::format("# {}\n\nDefault severity: {}.\n\n{}\n", entry->code, severityWord(entry->severity),
                                entry->summary);
  if (auto f = analysis::failureDescription(entry->code)) {
    auto section = [&](const char* title, std::string_view text) {
      if (!text.empty()) out += fmt::format("\n## {}\n\n{}\n", title, text);
    };
    section("What happens", f->mechanism);
    section("Fix", f->fix);
    section("How to verify", f->verify);
    section("Config keys", f->configKeys);
    section("Related ds_config rules", f->ruleCodes);
  }
  return out;
}

}  // namespace dsls::cli

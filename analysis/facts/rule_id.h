// The identifiers of the ds_config rules with their codes and default severities, built
// from rules.inc. Header-only, so that the log analyser can name a rule without linking
// the rules themselves.
#pragma once

#include "analysis/core/finding.h"

#include <cstddef>
#include <iterator>
#include <string_view>

namespace dsls::config {

enum class RuleGroup {
#define DSLS_RULE_GROUP(Id, title) Id,
#include "analysis/facts/rules.inc"
};

enum class RuleId {
#define DSLS_RULE(Id, code, severity, group, summary, check) Id,
#include "analysis/facts/rules.inc"
};

// One row of rules.inc without its check function.
struct RuleRow {
  RuleId id;
  std::string_view code;  // stable kebab-case, the diagnostic code
  analysis::Severity severity;  // default severity
  RuleGroup group;
  std::string_view summary;  // one line, for `dsls rules` and the docs index
};

inline constexpr RuleRow kRuleRows[] = {
#define DSLS_RULE(Id, code, severity, group, summary, check) \
  {RuleId::Id, code, analysis::Severity::severity, RuleGroup::group, summary},
#include "analysis/facts/rules.inc"
};

inline constexpr std::string_view kRuleGroupTitles[] = {
#define DSLS_RULE_GROUP(Id, title) title,
#include "analysis/facts/rules.inc"
};

inline constexpr std::size_t kRuleCount = std::size(kRuleRows);

constexpr const RuleRow& ruleRow(RuleId id) { return kRuleRows[static_cast<std::size_t>(id)]; }
constexpr std::string_view ruleCode(RuleId id) { return ruleRow(id).code; }
constexpr analysis::Severity defaultSeverity(RuleId id) { return ruleRow(id).severity; }
constexpr std::string_view ruleGroupTitle(RuleGroup g) { return kRuleGroupTitles[static_cast<std::size_t>(g)]; }

namespace detail {

constexpr bool kebabCase(std::string_view code) {
  if (code.empty() || code.front() == '-' || code.back() == '-') return false;
  for (char c : code)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

constexpr bool rowsAreValid() {
  for (std::size_t i = 0; i < kRuleCount; ++i) {
    if (static_cast<std::size_t>(kRuleRows[i].id) != i || !kebabCase(kRuleRows[i].code)) return false;
    // "log-" codes are the log analyser's.
    if (kRuleRows[i].code.starts_with("log-")) return false;
    for (std::size_t j = i + 1; j < kRuleCount; ++j)
      if (kRuleRows[i].code == kRuleRows[j].code) return false;
  }
  return true;
}

}  // namespace detail

static_assert(detail::rowsAreValid(), "rules.inc: every code must be unique, kebab-case and not start with log-");

}  // namespace dsls::config

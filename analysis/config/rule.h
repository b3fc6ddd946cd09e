// The ds_config rule framework: each rule is a function over the parsed document and
// the effective model that appends findings. Rules are declared once, in rules.inc.
#pragma once

#include "analysis/config/config_model.h"
#include "analysis/facts/rule_id.h"
#include "analysis/core/finding.h"
#include "analysis/core/settings.h"
#include "analysis/json/document.h"

#include <string>
#include <string_view>
#include <vector>

namespace dsls::config {

struct RuleContext {
  std::string_view text;
  const json::Document& doc;
  const ConfigModel& model;
  const analysis::Settings& settings;
};

using RuleCheck = void (*)(const RuleContext&, std::vector<analysis::Finding>&);

// A row of rules.inc (code, default severity, group, summary) with its check function.
struct RuleInfo : RuleRow {
  RuleCheck check;
};

// Every rule, in the order of rules.inc (the order they run in).
const std::vector<RuleInfo>& configRules();
const RuleInfo* findRule(std::string_view code);

// A finding of rule `id` with the code and default severity of its row in rules.inc.
analysis::Finding makeFinding(RuleId id, std::string message, analysis::TextRange range);
// The same at another severity, for a case the rule deliberately reports weaker (a key
// DeepSpeed ignores, a version it cannot know) or stronger (a combination DeepSpeed
// refuses) than its default. The rule's page in docs/rules/ names these cases.
analysis::Finding makeFinding(RuleId id, analysis::Severity severity, std::string message,
                              analysis::TextRange range);

// The check function of every rule, one file per topic under analysis/config/rules/.
#define DSLS_RULE(Id, code, severity, group, summary, check) \
  void check(const RuleContext&, std::vector<analysis::Finding>&);
#include "analysis/facts/rules.inc"

}  // namespace dsls::config

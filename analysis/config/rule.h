// The ds_config rule framework: each rule is a function over the parsed document and
// the effective model that appends findings. Rules are listed once in rules_registry.cpp.
#pragma once

#include "analysis/config/config_model.h"
#include "analysis/core/finding.h"
#include "analysis/facade/settings.h"
#include "analysis/json/document.h"

#include <string_view>
#include <vector>

namespace dsls::config {

struct RuleContext {
  std::string_view text;
  const json::Document& doc;
  const ConfigModel& model;
  const analysis::Settings& settings;
};

struct RuleInfo {
  std::string_view code;  // stable kebab-case, the diagnostic code
  analysis::Severity severity;  // default severity (a rule may use a lower one for weaker cases)
  std::string_view summary;     // one line, for `dsls rules` and the docs index
  void (*check)(const RuleContext&, std::vector<analysis::Finding>&);
};

const std::vector<RuleInfo>& configRules();
const RuleInfo* findRule(std::string_view code);

// Every rule function, one per file under analysis/config/rules/.
void checkJsonSyntax(const RuleContext&, std::vector<analysis::Finding>&);
void checkCommentsAndTrailingCommas(const RuleContext&, std::vector<analysis::Finding>&);
void checkDuplicateKeys(const RuleContext&, std::vector<analysis::Finding>&);
void checkOverlapCommRace(const RuleContext&, std::vector<analysis::Finding>&);

}  // namespace dsls::config

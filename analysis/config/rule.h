// The ds_config rule framework: each rule is a function over the parsed document and
// the effective model that appends findings. Rules are listed once in rules_registry.cpp.
#pragma once

#include "analysis/config/config_model.h"
#include "analysis/core/finding.h"
#include "analysis/core/settings.h"
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

// Key and value rules (analysis/config/rules/: unknown_key, deprecated_key, invalid_value, version_keys, auto_values).
void checkUnknownKeys(const RuleContext&, std::vector<analysis::Finding>&);
void checkDeprecatedKeys(const RuleContext&, std::vector<analysis::Finding>&);
void checkInvalidValues(const RuleContext&, std::vector<analysis::Finding>&);
void checkKeysTooNew(const RuleContext&, std::vector<analysis::Finding>&);
void checkKeysRemoved(const RuleContext&, std::vector<analysis::Finding>&);
void checkAutoNotFilled(const RuleContext&, std::vector<analysis::Finding>&);
void checkAutoOutsideHf(const RuleContext&, std::vector<analysis::Finding>&);
// Combination rules (batch_size, precision, zero_stage, optimizer, defaults_changed, consistency).
void checkBatchSize(const RuleContext&, std::vector<analysis::Finding>&);
void checkPrecisionConflict(const RuleContext&, std::vector<analysis::Finding>&);
void checkFp16OptionsInBf16(const RuleContext&, std::vector<analysis::Finding>&);
void checkBf16OverflowUnchecked(const RuleContext&, std::vector<analysis::Finding>&);
void checkMasterWeights(const RuleContext&, std::vector<analysis::Finding>&);
void checkIgnoredAtStage(const RuleContext&, std::vector<analysis::Finding>&);
void checkOffloadNeedsStage(const RuleContext&, std::vector<analysis::Finding>&);
void checkNvmePath(const RuleContext&, std::vector<analysis::Finding>&);
void checkLegacyStage1(const RuleContext&, std::vector<analysis::Finding>&);
void checkHpzRace(const RuleContext&, std::vector<analysis::Finding>&);
void checkMaxGradNorm(const RuleContext&, std::vector<analysis::Finding>&);
void checkUnknownOptimizer(const RuleContext&, std::vector<analysis::Finding>&);
void checkUnknownScheduler(const RuleContext&, std::vector<analysis::Finding>&);
void checkAmpWithZero(const RuleContext&, std::vector<analysis::Finding>&);
void checkLambLossScale(const RuleContext&, std::vector<analysis::Finding>&);
void checkPrescaleWithReduceScatter(const RuleContext&, std::vector<analysis::Finding>&);
void checkDefaultChanged(const RuleContext&, std::vector<analysis::Finding>&);
void checkAccelerateNeedsZero(const RuleContext&, std::vector<analysis::Finding>&);
void checkElasticityBatchKeys(const RuleContext&, std::vector<analysis::Finding>&);
void checkIneffectiveSettings(const RuleContext&, std::vector<analysis::Finding>&);
void checkConflictingSpellings(const RuleContext&, std::vector<analysis::Finding>&);

}  // namespace dsls::config

#include "analysis/config/rule.h"

namespace dsls::config {

using analysis::Severity;

const std::vector<RuleInfo>& configRules() {
  static const std::vector<RuleInfo> rules = {
      {"json-syntax", Severity::Error, "the file is not valid JSON", checkJsonSyntax},
      {"json-comment-or-trailing-comma", Severity::Warning,
       "comments or trailing commas: DeepSpeed accepts them, json.load (HF Trainer, Accelerate) does not",
       checkCommentsAndTrailingCommas},
      {"duplicate-key", Severity::Error, "a key appears twice in one object", checkDuplicateKeys},
      {"overlap-comm-race", Severity::Warning,
       "overlap_comm on a ZeRO stage and DeepSpeed version with known gradient races", checkOverlapCommRace},
  };
  return rules;
}

const RuleInfo* findRule(std::string_view code) {
  for (const auto& r : configRules())
    if (r.code == code) return &r;
  return nullptr;
}

}  // namespace dsls::config

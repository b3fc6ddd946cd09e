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
      {"unknown-key", Severity::Error,
       "a key DeepSpeed does not define there: rejected in strict sections, silently ignored elsewhere",
       checkUnknownKeys},
      {"deprecated-key", Severity::Warning, "an old key name DeepSpeed converts, ignores, or refuses next to the new one",
       checkDeprecatedKeys},
      {"invalid-value", Severity::Error, "a value of the wrong type, outside the allowed set, or out of range",
       checkInvalidValues},
      {"key-too-new", Severity::Error, "a key added in a later DeepSpeed release than the target one", checkKeysTooNew},
      {"key-removed", Severity::Error, "a key the target DeepSpeed release no longer accepts", checkKeysRemoved},
      {"auto-not-filled", Severity::Warning,
       "\"auto\" on a key neither HF Trainer nor Accelerate fills (including \"stage\": \"auto\")",
       checkAutoNotFilled},
      {"auto-outside-hf", Severity::Warning, "\"auto\" values that reach DeepSpeed unfilled when it is launched directly",
       checkAutoOutsideHf},
      {"batch-size-mismatch", Severity::Error,
       "train_batch_size is not micro batch x accumulation steps x data-parallel size", checkBatchSize},
      {"precision-conflict", Severity::Error, "fp16, bf16, Apex AMP or data_types.param_dtype enabled in conflict",
       checkPrecisionConflict},
      {"fp16-option-in-bf16", Severity::Error, "an fp16 loss-scaling option inside bf16 (rejected since 0.17.1)",
       checkFp16OptionsInBf16},
      {"bf16-overflow-unchecked", Severity::Warning,
       "bf16 on 0.17.1-0.19.2 without check_grad_overflow: NaN or inf gradients are applied", checkBf16OverflowUnchecked},
      {"master-weights-requirements", Severity::Error,
       "16-bit master weight options without the ZeRO stage or offload they need", checkMasterWeights},
      {"ignored-at-stage", Severity::Hint, "a zero_optimization key the chosen ZeRO stage never reads",
       checkIgnoredAtStage},
      {"offload-needs-stage", Severity::Error, "optimizer offload settings that need ZeRO stage 3",
       checkOffloadNeedsStage},
      {"nvme-path-missing", Severity::Error, "NVMe offload without nvme_path", checkNvmePath},
      {"legacy-stage1", Severity::Error, "legacy_stage1: true, removed in DeepSpeed 0.5.9", checkLegacyStage1},
      {"hpz-race", Severity::Warning, "ZeRO++ hpZ partitioning on DeepSpeed releases with its race (before 0.13.5)",
       checkHpzRace},
      {"max-grad-norm-in-optimizer", Severity::Error, "optimizer.params.max_grad_norm, a hard error in DeepSpeed",
       checkMaxGradNorm},
      {"unknown-optimizer", Severity::Error, "an optimizer.type DeepSpeed cannot resolve", checkUnknownOptimizer},
      {"unknown-scheduler", Severity::Error, "a scheduler.type DeepSpeed cannot resolve", checkUnknownScheduler},
      {"amp-with-zero", Severity::Error, "Apex AMP enabled together with ZeRO", checkAmpWithZero},
      {"lamb-static-loss-scale", Severity::Error, "the Lamb optimizers with a static fp16 loss scale",
       checkLambLossScale},
      {"prescale-with-reduce-scatter", Severity::Error,
       "prescale_gradients or gradient_predivide_factor with ZeRO-2/3 reduce-scatter", checkPrescaleWithReduceScatter},
      {"default-changed", Severity::Information,
       "an unset key whose default changed across releases (gradient_clipping, steps_per_print, pin_memory)",
       checkDefaultChanged},
      {"accelerate-needs-zero-section", Severity::Error,
       "no zero_optimization section where Accelerate (or HF Trainer through it) requires one",
       checkAccelerateNeedsZero},
      {"elasticity-batch-keys", Severity::Error, "batch keys next to elastic training", checkElasticityBatchKeys},
      {"ineffective-setting", Severity::Warning, "a setting that DeepSpeed or Accelerate overrides",
       checkIneffectiveSettings},
      {"conflicting-spellings", Severity::Warning, "two names of one field set at once (bf16/bfloat16, stage3_x/x)",
       checkConflictingSpellings},
  };
  return rules;
}

const RuleInfo* findRule(std::string_view code) {
  for (const auto& r : configRules())
    if (r.code == code) return &r;
  return nullptr;
}

}  // namespace dsls::config

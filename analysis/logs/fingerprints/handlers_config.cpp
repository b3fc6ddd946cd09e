// Configuration errors DeepSpeed, the HF integration and Accelerate raise at start-up,
// and DeepSpeed op builds.
#include <fmt/format.h>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

bool recordOnly(const Hit& hit, FailureId failure) {
  recordHere(hit, failure);
  return true;
}

}  // namespace

bool onBatchAssert(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::BatchSizeAssert);
  if (!hit.group("train_batch").empty())
    addDetail(a, fmt::format("train_batch_size {} != micro batch {} × accumulation steps {} × data-parallel world "
                             "size {}.",
                             hit.group("train_batch"), hit.group("micro_batch"), hit.group("grad_acc"),
                             hit.group("world_size")));
  else if (!hit.group("setting").empty())
    addDetail(a, fmt::format("{} is {}; it must be greater than 0.", hit.group("setting"), hit.group("value")));
  else
    addDetail(a, "Neither train_batch_size nor train_micro_batch_size_per_gpu is given.");
  return true;
}

bool onHfMismatch(const Hit& hit) {
  recordHere(hit, FailureId::HfConfigMismatch);
  hit.stream().hfMismatchLinesLeft = 32;  // the "- ds key=value vs hf arg=value" lines follow
  return true;
}

bool onFp16Bf16Both(const Hit& hit) { return recordOnly(hit, FailureId::Fp16Bf16Both); }
bool onAutoNotFilled(const Hit& hit) { return recordOnly(hit, FailureId::AutoNotFilled); }

bool onMaxGradNormOpt(const Hit& hit) {
  // Raised, it stops the run; printed as a warning, it does not.
  const bool raised = hit.c.exceptionLine || hit.message().find("ValueError") != std::string_view::npos;
  RecordOptions o;
  o.tier = raised ? Tier::Primary : Tier::Advisory;
  o.severity = raised ? analysis::Severity::Error : analysis::Severity::Warning;
  record(hit.s, FailureId::MaxGradNormInOptimizer, occurrenceOf(hit.c), o);
  return true;
}

bool onUntestedOptimizer(const Hit& hit) { return recordOnly(hit, FailureId::UntestedZeroOptimizer); }
bool onOffloadClientOptimizer(const Hit& hit) { return recordOnly(hit, FailureId::ZeroOffloadClientOptimizer); }
bool onAmpZero(const Hit& hit) { return recordOnly(hit, FailureId::AmpWithZero); }

bool onDuplicateKeys(const Hit& hit) {
  addDetail(recordHere(hit, FailureId::DuplicateConfigKeys), "Duplicated: " + text::sanitize(hit.group("keys"), 160));
  return true;
}

bool onZeroSectionMissing(const Hit& hit) { return recordOnly(hit, FailureId::AccelerateZeroSectionMissing); }
bool onPartialOffload(const Hit& hit) { return recordOnly(hit, FailureId::PartialOffloadStage); }
bool onPipelineZero(const Hit& hit) { return recordOnly(hit, FailureId::PipelineZeroStage); }

bool onDeprecatedKey(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::ConfigDeprecatedKey);
  const std::string oldKey = text::sanitize(hit.m.firstOf({"param_old", "config_old"}), 80);
  const std::string newKey = text::sanitize(hit.m.firstOf({"param_new", "config_new"}), 80);
  addConfigKey(a, oldKey);
  addDetail(a, fmt::format("`{}` is deprecated; use `{}`.", oldKey, newKey));
  return true;
}

bool onUnsupportedOptimizer(const Hit& hit) {
  addDetail(recordHere(hit, FailureId::UnsupportedOptimizer),
            "optimizer.type was " + text::sanitize(hit.group("optimizer"), 80) + ".");
  return true;
}

bool onOpBuild(const Hit& hit) {
  addDetail(recordHere(hit, FailureId::OpBuildFailure),
            "The op `" + text::sanitize(hit.group("op"), 60) + "` failed to build.");
  return true;
}

bool onDsOptAdamMissing(const Hit& hit) {
  addDetail(recordHere(hit, FailureId::OpBuildFailure),
            "DeepSpeedCPUAdam has no ds_opt_adam: the cpu_adam op was never loaded; its build error is earlier in "
            "the full output.");
  return true;
}

}  // namespace dsls::logs::detail

// Configuration errors DeepSpeed, the HF integration and Accelerate raise at start-up,
// and DeepSpeed op builds. These handlers only observe: what a line shows is returned, and
// applyObserved takes it into the state.
#include <fmt/format.h>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

// A failure of this line, with a detail for the finding when one is given.
Observed failure(FailureId id, std::string detail = {}) {
  Observed o;
  o.failure = true;
  o.add(id).details[0] = std::move(detail);
  return o;
}

std::string batchDetail(const HitView& hit) {
  if (!hit.group("train_batch").empty())
    return fmt::format("train_batch_size {} != micro batch {} × accumulation steps {} × data-parallel world size {}.",
                       hit.group("train_batch"), hit.group("micro_batch"), hit.group("grad_acc"),
                       hit.group("world_size"));
  if (!hit.group("setting").empty())
    return fmt::format("{} is {}; it must be greater than 0.", hit.group("setting"), hit.group("value"));
  return "Neither train_batch_size nor train_micro_batch_size_per_gpu is given.";
}

Observed observeBatchAssert(const HitView& hit) { return failure(FailureId::BatchSizeAssert, batchDetail(hit)); }

Observed observeHfMismatch(const HitView&) {
  Observed o = failure(FailureId::HfConfigMismatch);
  o.hfMismatchLines = 32;  // the "- ds key=value vs hf arg=value" lines follow
  return o;
}

Observed observeMaxGradNormOpt(const HitView& hit) {
  // Raised, it stops the run; printed as a warning, it does not.
  const bool raised = hit.c.exceptionLine || hit.message().find("ValueError") != std::string_view::npos;
  Observed o = failure(FailureId::MaxGradNormInOptimizer);
  RecordOptions& options = o.findings[0].options;
  options.tier = raised ? Tier::Primary : Tier::Advisory;
  options.severity = raised ? analysis::Severity::Error : analysis::Severity::Warning;
  return o;
}

Observed observeDuplicateKeys(const HitView& hit) {
  return failure(FailureId::DuplicateConfigKeys, "Duplicated: " + text::sanitize(hit.group("keys"), 160));
}

Observed observeDeprecatedKey(const HitView& hit) {
  const std::string oldKey = text::sanitize(hit.m.firstOf({"param_old", "config_old"}), 80);
  const std::string newKey = text::sanitize(hit.m.firstOf({"param_new", "config_new"}), 80);
  Observed o = failure(FailureId::ConfigDeprecatedKey, fmt::format("`{}` is deprecated; use `{}`.", oldKey, newKey));
  o.findings[0].configKey = oldKey;
  return o;
}

Observed observeUnsupportedOptimizer(const HitView& hit) {
  return failure(FailureId::UnsupportedOptimizer, "optimizer.type was " + text::sanitize(hit.group("optimizer"), 80) + ".");
}

Observed observeOpBuild(const HitView& hit) {
  return failure(FailureId::OpBuildFailure, "The op `" + text::sanitize(hit.group("op"), 60) + "` failed to build.");
}

Observed observeOpBuildStep(const HitView& hit) {
  if (!hit.group("arch").empty())
    return failure(FailureId::OpBuildFailure, "nvcc does not know the GPU architecture " +
                                                  text::sanitize(hit.group("arch"), 20) +
                                                  ": the CUDA toolkit is older than the GPU (or TORCH_CUDA_ARCH_LIST names "
                                                  "an architecture it lacks).");
  if (!hit.group("cuda").empty())
    return failure(FailureId::OpBuildFailure, "The CUDA toolkit found (" + text::sanitize(hit.group("cuda"), 12) +
                                                  ") is not the one PyTorch was built with (" +
                                                  text::sanitize(hit.group("torch_cuda"), 12) +
                                                  "): DeepSpeed refuses to build its ops against it.");
  return failure(FailureId::OpBuildFailure, "ninja stopped the op's build: the compiler's or linker's error is on the "
                                            "lines before it.");
}

Observed observeZero3LowCpuMemUsage(const HitView&) { return failure(FailureId::Zero3LowCpuMemUsage); }

Observed observeDsOptAdamMissing(const HitView&) {
  return failure(FailureId::OpBuildFailure,
                 "DeepSpeedCPUAdam has no ds_opt_adam: the cpu_adam op was never loaded; its build error is earlier in "
                 "the full output.");
}

// The lines whose failure says it all: the finding alone.
Observed observeAccelerateMicroBatchAuto(const HitView&) {
  Observed o;
  o.failure = true;
  Observed::Finding& f = o.add(FailureId::AutoNotFilled);
  f.details[0] = "Accelerate fills train_micro_batch_size_per_gpu (\"auto\") from the dataloaders given to "
                 "accelerator.prepare(); this call was given none, so the value stayed unfilled.";
  f.detailOnFirst = true;
  f.configKey = "train_micro_batch_size_per_gpu";
  return o;
}

template <FailureId id>
Observed only(const HitView&) {
  return failure(id);
}

}  // namespace

DSLS_OBSERVING_HANDLER(BatchAssert) DSLS_OBSERVING_HANDLER(HfMismatch) DSLS_OBSERVING_HANDLER(MaxGradNormOpt)
DSLS_OBSERVING_HANDLER(DuplicateKeys) DSLS_OBSERVING_HANDLER(DeprecatedKey) DSLS_OBSERVING_HANDLER(UnsupportedOptimizer)
DSLS_OBSERVING_HANDLER(OpBuild) DSLS_OBSERVING_HANDLER(DsOptAdamMissing) DSLS_OBSERVING_HANDLER(OpBuildStep)
DSLS_OBSERVING_HANDLER(Zero3LowCpuMemUsage)
bool onFp16Bf16Both(const Hit& hit) { return applyObserved(hit, only<FailureId::Fp16Bf16Both>); }
bool onAutoNotFilled(const Hit& hit) { return applyObserved(hit, only<FailureId::AutoNotFilled>); }
DSLS_OBSERVING_HANDLER(AccelerateMicroBatchAuto)
bool onUntestedOptimizer(const Hit& hit) { return applyObserved(hit, only<FailureId::UntestedZeroOptimizer>); }
bool onOffloadClientOptimizer(const Hit& hit) { return applyObserved(hit, only<FailureId::ZeroOffloadClientOptimizer>); }
bool onAmpZero(const Hit& hit) { return applyObserved(hit, only<FailureId::AmpWithZero>); }
bool onZeroSectionMissing(const Hit& hit) { return applyObserved(hit, only<FailureId::AccelerateZeroSectionMissing>); }
bool onPartialOffload(const Hit& hit) { return applyObserved(hit, only<FailureId::PartialOffloadStage>); }
bool onPipelineZero(const Hit& hit) { return applyObserved(hit, only<FailureId::PipelineZeroStage>); }

}  // namespace dsls::logs::detail

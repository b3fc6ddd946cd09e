// ZeRO internals and checkpoints: parameter state asserts, gradients reduced twice,
// partitioned parameters used as full ones, checkpoints that do not fit the run or
// could not be written. These handlers only observe: what a line shows is returned, and
// applyObserved takes it into the state.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

// A failure of this line, with a detail for the finding: on its first line only, when the
// detail names that line's values.
Observed failure(FailureId id, std::string detail = {}, bool onFirst = false) {
  Observed o;
  o.failure = true;
  Observed::Finding& f = o.add(id);
  f.details[0] = std::move(detail);
  f.detailOnFirst = onFirst;
  return o;
}

Observed observeZeroParamAssert(const HitView& hit) {
  return failure(FailureId::Zero3ParamStateAssert,
                 fmt::format("Parameter id {} had status {}.", hit.group("param_id"), hit.group("status")), true);
}

Observed observeZeroReducedTwice(const HitView& hit) {
  return failure(FailureId::ZeroGradReducedTwice, fmt::format("Parameter {} was reduced twice.", hit.group("param_id")),
                 true);
}

Observed observeZero3PartitionedParam(const HitView&) { return failure(FailureId::Zero3PartitionedParam); }
Observed observeZero3Inflight(const HitView&) { return failure(FailureId::Zero3InflightParams); }

std::string sizeMismatchDetail(const HitView& hit) {
  const std::string name = text::sanitize(hit.group("param"), 160);
  const std::string_view saved = hit.group("checkpoint_shape");
  const std::string_view model = hit.group("model_shape");
  if (saved.empty() || saved == "0")
    return "The checkpoint holds empty tensors (torch.Size([0])), e.g. " + name +
           ": it was saved from a partitioned ZeRO-3 model.";
  if (model.empty() || model == "0")
    return "The model side is torch.Size([0]), e.g. " + name + ": the model is still partitioned by ZeRO-3 while loading.";
  return "Shapes differ, e.g. " + name + ": checkpoint [" + std::string(saved) + "] vs model [" + std::string(model) +
         "].";
}

Observed observeCkptSizeMismatch(const HitView& hit) {
  return failure(FailureId::CheckpointSizeMismatch, sizeMismatchDetail(hit));
}

Observed observeCkptDpMismatch(const HitView& hit) {
  return failure(FailureId::CheckpointDpWorldSize,
                 fmt::format("Saved with a data-parallel world size of {}, loaded with {}.", hit.group("saved"),
                             hit.group("current")));
}

Observed observeCkptNoLatest(const HitView& hit) {
  return failure(FailureId::CheckpointLatestMissing, "Looked for " + text::sanitize(hit.group("path"), 200) + ".");
}

Observed observeCkptWriteFailed(const HitView& hit) {
  return failure(FailureId::CheckpointWriteFailed,
                 "torch.save stopped at `" + text::sanitize(hit.group("entry"), 120) + "` of the checkpoint file.", true);
}

// "[Errno 28] No space left on device" ending a traceback through torch.save (serialization.py).
Observed observeDiskFull(const HitView& hit) {
  if (!hit.c.exceptionLine || !hit.c.frames) return {};
  const auto& frames = *hit.c.frames;
  const bool inSave = std::any_of(frames.begin(), frames.end(), [](const std::string& f) {
    return f.find("serialization.py") != std::string::npos && f.find("save") != std::string::npos;
  });
  if (!inSave) return {};
  return failure(FailureId::CheckpointWriteFailed, "torch.save stopped: the disk is full (errno 28).", true);
}

// Not a failure: a generic exception on the same line is still reported.
Observed observeZero3TraceCache(const HitView& hit) {
  const std::string_view expected = hit.group("expected");
  Observed o = failure(FailureId::Zero3TraceCacheInvalidated,
                       expected.empty()
                           ? fmt::format("First at step {}: module {} was not in the trace (it had {} modules).",
                                         hit.group("step"), hit.group("module"), hit.group("cached"))
                           : fmt::format("First at step {}: the trace expected module {} but module {} ran.",
                                         hit.group("step"), expected, hit.group("got")),
                       true);
  o.failure = false;
  return o;
}

}  // namespace

DSLS_OBSERVING_HANDLER(ZeroParamAssert) DSLS_OBSERVING_HANDLER(ZeroReducedTwice) DSLS_OBSERVING_HANDLER(Zero3PartitionedParam)
DSLS_OBSERVING_HANDLER(CkptSizeMismatch) DSLS_OBSERVING_HANDLER(CkptDpMismatch) DSLS_OBSERVING_HANDLER(CkptNoLatest)
DSLS_OBSERVING_HANDLER(CkptWriteFailed) DSLS_OBSERVING_HANDLER(DiskFull) DSLS_OBSERVING_HANDLER(Zero3TraceCache)
DSLS_OBSERVING_HANDLER(Zero3Inflight)

}  // namespace dsls::logs::detail

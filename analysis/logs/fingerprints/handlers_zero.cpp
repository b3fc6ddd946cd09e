// ZeRO internals and checkpoints: parameter state asserts, gradients reduced twice,
// partitioned parameters used as full ones, checkpoints that do not fit the run or
// could not be written.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {

bool onZeroParamAssert(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::Zero3ParamStateAssert);
  if (a && a->total == 1)
    addDetail(a, fmt::format("Parameter id {} had status {}.", hit.group("param_id"), hit.group("status")));
  return true;
}

bool onZeroReducedTwice(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::ZeroGradReducedTwice);
  if (a && a->total == 1) addDetail(a, fmt::format("Parameter {} was reduced twice.", hit.group("param_id")));
  return true;
}

bool onZero3PartitionedParam(const Hit& hit) {
  recordHere(hit, FailureId::Zero3PartitionedParam);
  return true;
}

bool onCkptSizeMismatch(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::CheckpointSizeMismatch);
  const std::string name = text::sanitize(hit.group("param"), 160);
  const std::string_view saved = hit.group("checkpoint_shape");
  const std::string_view model = hit.group("model_shape");
  if (saved.empty() || saved == "0")
    addDetail(a, "The checkpoint holds empty tensors (torch.Size([0])), e.g. " + name +
                     ": it was saved from a partitioned ZeRO-3 model.");
  else if (model.empty() || model == "0")
    addDetail(a, "The model side is torch.Size([0]), e.g. " + name +
                     ": the model is still partitioned by ZeRO-3 while loading.");
  else
    addDetail(a, "Shapes differ, e.g. " + name + ": checkpoint [" + std::string(saved) + "] vs model [" +
                     std::string(model) + "].");
  return true;
}

bool onCkptDpMismatch(const Hit& hit) {
  addDetail(recordHere(hit, FailureId::CheckpointDpWorldSize),
            fmt::format("Saved with a data-parallel world size of {}, loaded with {}.", hit.group("saved"),
                        hit.group("current")));
  return true;
}

bool onCkptNoLatest(const Hit& hit) {
  addDetail(recordHere(hit, FailureId::CheckpointLatestMissing), "Looked for " + text::sanitize(hit.group("path"), 200) + ".");
  return true;
}

bool onCkptWriteFailed(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::CheckpointWriteFailed);
  if (a && a->total == 1)
    addDetail(a, "torch.save stopped at `" + text::sanitize(hit.group("entry"), 120) + "` of the checkpoint file.");
  return true;
}

// "[Errno 28] No space left on device" ending a traceback through torch.save (serialization.py).
bool onDiskFull(const Hit& hit) {
  if (!hit.c.exceptionLine || !hit.c.frames) return false;
  const auto& frames = *hit.c.frames;
  const bool inSave = std::any_of(frames.begin(), frames.end(), [](const std::string& f) {
    return f.find("serialization.py") != std::string::npos && f.find("save") != std::string::npos;
  });
  if (!inSave) return false;
  Accumulator* a = recordHere(hit, FailureId::CheckpointWriteFailed);
  if (a && a->total == 1) addDetail(a, "torch.save stopped: the disk is full (errno 28).");
  return true;
}

}  // namespace dsls::logs::detail

namespace dsls::logs::detail {

bool onZero3TraceCache(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::Zero3TraceCacheInvalidated);
  if (a && a->total == 1) {
    const std::string_view expected = hit.group("expected");
    addDetail(a, expected.empty()
                     ? fmt::format("First at step {}: module {} was not in the trace (it had {} modules).",
                                   hit.group("step"), hit.group("module"), hit.group("cached"))
                     : fmt::format("First at step {}: the trace expected module {} but module {} ran.",
                                   hit.group("step"), expected, hit.group("got")));
  }
  return false;
}

}  // namespace dsls::logs::detail

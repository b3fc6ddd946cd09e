#include "analysis/facts/overlap_race_releases.h"

#include <stdexcept>
#include <string>

namespace dsls::facts {

const std::vector<RaceBug>& raceBugs() {
  // Sources: the DeepSpeed PRs and issues linked in each entry (version of each fix from the release tags).
  static const std::vector<RaceBug> bugs = {
      {RaceBugKind::ReverseWait, "reverse-wait",
       "the compute stream could refill a gradient bucket buffer while the reduction stream was still reading it",
       {1, 2}, "0.8.0", "0.14.3", true, false, "",
       "[PR #2500](https://github.com/deepspeedai/DeepSpeed/pull/2500) (cause), "
       "[#5545](https://github.com/deepspeedai/DeepSpeed/issues/5545), "
       "[PR #5606](https://github.com/deepspeedai/DeepSpeed/pull/5606) (fix)"},
      // PR #6993 (0.17.2) reset the index; PR #7371 (0.17.5) stopped the corruption with an extra
      // stream sync, PR #7805 (0.18.5) fixed the index and restored the overlap.
      {RaceBugKind::PingPongIndex, "ping-pong-index",
       "the double-buffer index was reset after each reduction, so new gradients went into the buffer being reduced",
       {1, 2}, "0.17.2", "0.17.5", true, false, "",
       "[#7188](https://github.com/deepspeedai/DeepSpeed/issues/7188), "
       "[PR #7371](https://github.com/deepspeedai/DeepSpeed/pull/7371), "
       "[PR #7805](https://github.com/deepspeedai/DeepSpeed/pull/7805)"},
      {RaceBugKind::AllocatorReuse, "allocator-reuse",
       "tensors used by queued reductions were not recorded on the reduction stream, so the caching allocator could "
       "hand their memory to new tensors early; this path does not need contiguous_gradients",
       {1, 2}, "", "0.19.0", false, false, "",
       "[PR #7965](https://github.com/deepspeedai/DeepSpeed/pull/7965), "
       "[#5242](https://github.com/deepspeedai/DeepSpeed/issues/5242), "
       "[#5347](https://github.com/deepspeedai/DeepSpeed/issues/5347)"},
      {RaceBugKind::CompileStreams, "compile-streams",
       "under torch.compile, gradients reach a bucket from several streams and the reduction waited on one only",
       {1, 2}, "", "0.19.3", true, true, "",
       "[#8061](https://github.com/deepspeedai/DeepSpeed/issues/8061), "
       "[PR #8080](https://github.com/deepspeedai/DeepSpeed/pull/8080)"},
      // The stream wait precedes the contiguous_gradients branch, so the bucket layout does not matter.
      {RaceBugKind::Zero3GradStream, "zero3-grad-stream",
       "ZeRO-3's bucket copy waited on the default stream, but PyTorch 2.10+ may produce gradients on other streams",
       {3}, "", "0.18.8", false, false, "2.10.0",
       "[PR #7898](https://github.com/deepspeedai/DeepSpeed/pull/7898)"},
  };
  return bugs;
}

const RaceBug& raceBug(RaceBugKind kind) {
  for (const RaceBug& bug : raceBugs())
    if (bug.kind == kind) return bug;
  throw std::logic_error("overlap race table has no entry for this kind");
}

bool hitsStage(const RaceBug& bug, int stage) {
  for (int s : bug.stages)
    if (s == stage) return true;
  return false;
}

namespace {

Version release(std::string_view text) {
  auto v = Version::parse(text);
  if (!v) throw std::logic_error("overlap race table: bad release " + std::string(text));
  return *v;
}

}  // namespace

Version fixedIn(const RaceBug& bug) { return release(bug.fixed); }

std::optional<Version> minTorchOf(const RaceBug& bug) {
  if (bug.minTorch.empty()) return std::nullopt;
  return release(bug.minTorch);
}

std::optional<Version> claimedFrom(const RaceBug& bug, int stage) {
  if (!bug.introduced.empty()) return release(bug.introduced);
  if (stage != 3) return kZero12RacesDocumentedSince;
  return std::nullopt;
}

bool affectsRelease(const RaceBug& bug, int stage, const Version& deepspeed) {
  if (auto from = claimedFrom(bug, stage); from && deepspeed < *from) return false;
  return deepspeed < fixedIn(bug);
}

Version lastFixFor(int stage) {
  Version last;
  for (const RaceBug& bug : raceBugs())
    if (hitsStage(bug, stage) && last < fixedIn(bug)) last = fixedIn(bug);
  return last;
}

}  // namespace dsls::facts

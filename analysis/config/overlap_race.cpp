#include "analysis/config/overlap_race.h"

#include <fmt/format.h>

namespace dsls::config {

using catalog::Version;

const std::vector<RaceBug>& raceBugs() {
  // Sources: the DeepSpeed PRs and issues linked in each entry (version of each fix from the release tags).
  static const std::vector<RaceBug> bugs = {
      {"reverse-wait",
       "the compute stream could refill a gradient bucket buffer while the reduction stream was still reading it",
       {1, 2}, "0.8.0", "0.14.3", true, false, "",
       "[PR #2500](https://github.com/deepspeedai/DeepSpeed/pull/2500) (cause), "
       "[#5545](https://github.com/deepspeedai/DeepSpeed/issues/5545), "
       "[PR #5606](https://github.com/deepspeedai/DeepSpeed/pull/5606) (fix)"},
      {"ping-pong-index",
       "the double-buffer index was reset after each reduction, so new gradients went into the buffer being reduced",
       {1, 2}, "0.17.2", "0.17.5", true, false, "",
       "[#7188](https://github.com/deepspeedai/DeepSpeed/issues/7188), "
       "[PR #7371](https://github.com/deepspeedai/DeepSpeed/pull/7371), "
       "[PR #7805](https://github.com/deepspeedai/DeepSpeed/pull/7805)"},
      {"allocator-reuse",
       "tensors used by queued reductions were not recorded on the reduction stream, so the caching allocator could "
       "hand their memory to new tensors early; this path does not need contiguous_gradients",
       {1, 2}, "", "0.19.0", false, false, "",
       "[PR #7965](https://github.com/deepspeedai/DeepSpeed/pull/7965), "
       "[#5242](https://github.com/deepspeedai/DeepSpeed/issues/5242), "
       "[#5347](https://github.com/deepspeedai/DeepSpeed/issues/5347)"},
      {"compile-streams",
       "under torch.compile, gradients reach a bucket from several streams and the reduction waited on one only",
       {1, 2}, "", "0.19.3", true, true, "",
       "[#8061](https://github.com/deepspeedai/DeepSpeed/issues/8061), "
       "[PR #8080](https://github.com/deepspeedai/DeepSpeed/pull/8080)"},
      {"zero3-grad-stream",
       "ZeRO-3's bucket copy waited on the default stream, but PyTorch 2.10+ may produce gradients on other streams",
       {3}, "", "0.18.8", true, false, "2.10.0",
       "[PR #7898](https://github.com/deepspeedai/DeepSpeed/pull/7898)"},
  };
  return bugs;
}

std::string describeVersion(const ConfigModel& model, const analysis::Settings& settings) {
  if (!model.deepspeed) return "the DeepSpeed version (unknown)";
  std::string s = "DeepSpeed " + model.deepspeed->str();
  if (!settings.deepspeedVersionSource.empty()) s += " (from " + settings.deepspeedVersionSource + ")";
  return s;
}

namespace {

bool inRange(const Version& v, std::string_view introduced, std::string_view fixed) {
  if (!introduced.empty() && v < *Version::parse(introduced)) return false;
  return v < *Version::parse(fixed);
}

bool hitsStage(const RaceBug& bug, int stage) {
  for (int s : bug.stages)
    if (s == stage) return true;
  return false;
}

// The ZeRO-1/2 races together span 0.8.0 up to 0.19.3 (the last needs torch.compile from 0.19.0).
const Version kFirstAffected{0, 8, 0};

}  // namespace

RaceAssessment assessRace(const ConfigModel& m, const analysis::Settings& settings) {
  RaceAssessment a;
  const ZeroModel& z = m.zero;
  if (!z.stage.value || *z.stage.value == 0) {
    a.reason = "ZeRO stage 0 has no gradient buckets to race on";
    return a;
  }
  int stage = *z.stage.value;
  if (!z.overlapComm.value || !*z.overlapComm.value) {
    a.reason = "overlap_comm is effectively false, so no reduction runs on a side stream";
    return a;
  }
  if (settings.worldSize && *settings.worldSize == 1) {
    a.reason = "a single rank has no gradient reduction to overlap";
    return a;
  }
  bool contiguous = z.contiguousGradients.value.value_or(true);

  auto applies = [&](const RaceBug& bug) {
    if (!hitsStage(bug, stage)) return false;
    if (bug.needsContiguous && !contiguous) return false;
    if (bug.needsTorchCompile && !m.torchCompile) return false;
    if (!bug.minTorch.empty() && (!m.torch || *m.torch < *Version::parse(bug.minTorch))) return false;
    if (stage == 1 && m.deepspeed && *m.deepspeed < Version{0, 13, 0}) return false;  // flags ignored then
    return true;
  };

  if (!m.deepspeed) {
    if (stage == 3) {
      // ZeRO-3's one known race needs PyTorch 2.10+; stay quiet unless the versions say so.
      for (const RaceBug& bug : raceBugs())
        if (applies(bug)) a.bugs.push_back(&bug);
      a.verdict = a.bugs.empty() ? RaceAssessment::Verdict::NotApplicable : RaceAssessment::Verdict::VersionUnknown;
      if (a.bugs.empty()) a.reason = "ZeRO-3's known overlap race needs PyTorch 2.10 or newer with DeepSpeed older than 0.18.8";
      return a;
    }
    for (const RaceBug& bug : raceBugs())
      if (hitsStage(bug, stage) && (!bug.needsContiguous || contiguous)) a.bugs.push_back(&bug);
    a.verdict = RaceAssessment::Verdict::VersionUnknown;
    return a;
  }

  const Version& v = *m.deepspeed;
  for (const RaceBug& bug : raceBugs()) {
    if (!applies(bug)) continue;
    // The allocator race is documented from the releases the other races cover; older ones are not claimed.
    std::string_view introduced = bug.introduced.empty() && stage != 3 ? "0.8.0" : bug.introduced;
    if (inRange(v, introduced, bug.fixed)) a.bugs.push_back(&bug);
  }
  if (!a.bugs.empty()) {
    a.verdict = RaceAssessment::Verdict::AtRisk;
  } else if (stage == 1 && v < Version{0, 13, 0}) {
    a.reason = "ZeRO stage 1 ignored overlap_comm before DeepSpeed 0.13.0";
  } else if (stage != 3 && v < kFirstAffected) {
    a.reason = "the documented ZeRO-1/2 races start with DeepSpeed 0.8.0";
  } else if (stage != 3 && v < Version{0, 19, 3}) {
    a.reason = fmt::format("DeepSpeed {} is affected only under torch.compile, which this config does not enable",
                           v.str());
  } else if (stage == 3 && v < Version{0, 18, 8}) {
    a.reason = "ZeRO-3's known overlap race needs PyTorch 2.10 or newer";
    a.verdict = RaceAssessment::Verdict::NotApplicable;
    return a;
  } else {
    a.verdict = RaceAssessment::Verdict::Fixed;
    a.reason = fmt::format("DeepSpeed {} has every known overlap_comm fix", v.str());
  }
  return a;
}

}  // namespace dsls::config

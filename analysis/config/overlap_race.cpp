#include "analysis/config/overlap_race.h"

#include <fmt/format.h>

namespace dsls::config {

using catalog::Version;

std::string describeVersion(const ConfigModel& model, const analysis::Settings& settings) {
  if (!model.deepspeed) return "the DeepSpeed version (unknown)";
  std::string s = "DeepSpeed " + model.deepspeed->str();
  if (!settings.deepspeedVersionSource.empty()) s += " (from " + settings.deepspeedVersionSource + ")";
  return s;
}

namespace {

// "2.10.0" -> "2.10", as release lines are usually named in prose.
std::string releaseLine(const Version& v) {
  return v.patch == 0 ? fmt::format("{}.{}", v.major, v.minor) : v.str();
}

const RaceBug& zero3Bug() { return facts::raceBug(facts::RaceBugKind::Zero3GradStream); }

std::string zero3TorchText() { return releaseLine(*facts::minTorchOf(zero3Bug())); }

}  // namespace

RaceAssessment assessRace(const ConfigModel& m, const analysis::Settings& settings) {
  RaceAssessment a;
  const ZeroModel& z = m.zero;
  if (!z.stage.value || *z.stage.value == 0) {
    a.reason = "ZeRO stage 0 has no gradient buckets to race on";
    return a;
  }
  int stage = *z.stage.value;
  if (m.bf16Optimizer == Bf16OptimizerUse::Yes) {
    a.reason = "with bf16 and fp32 gradient accumulation at ZeRO stage 1 DeepSpeed uses its BF16_Optimizer, which "
               "has no overlapped gradient reduction";
    return a;
  }
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
    if (!facts::hitsStage(bug, stage)) return false;
    if (bug.needsContiguous && !contiguous) return false;
    if (bug.needsTorchCompile && !m.torchCompile) return false;
    if (auto minTorch = facts::minTorchOf(bug); minTorch && (!m.torch || *m.torch < *minTorch)) return false;
    if (stage == 1 && m.deepspeed && *m.deepspeed < facts::kZero1HonoursOverlapSince) return false;  // flags ignored
    return true;
  };

  if (!m.deepspeed) {
    if (stage == 3) {
      // ZeRO-3's one known race needs PyTorch 2.10+; stay quiet unless the versions say so.
      for (const RaceBug& bug : raceBugs())
        if (applies(bug)) a.bugs.push_back(&bug);
      a.verdict = a.bugs.empty() ? RaceAssessment::Verdict::NotApplicable : RaceAssessment::Verdict::VersionUnknown;
      if (a.bugs.empty())
        a.reason = fmt::format("ZeRO-3's known overlap race needs PyTorch {} or newer with DeepSpeed older than {}",
                               zero3TorchText(), zero3Bug().fixed);
      return a;
    }
    for (const RaceBug& bug : raceBugs())
      if (facts::hitsStage(bug, stage) && (!bug.needsContiguous || contiguous)) a.bugs.push_back(&bug);
    a.verdict = RaceAssessment::Verdict::VersionUnknown;
    return a;
  }

  const Version& v = *m.deepspeed;
  for (const RaceBug& bug : raceBugs())
    if (applies(bug) && facts::affectsRelease(bug, stage, v)) a.bugs.push_back(&bug);
  if (!a.bugs.empty()) {
    a.verdict = RaceAssessment::Verdict::AtRisk;
  } else if (stage == 1 && v < facts::kZero1HonoursOverlapSince) {
    a.reason = "ZeRO stage 1 ignored overlap_comm before DeepSpeed " + facts::kZero1HonoursOverlapSince.str();
  } else if (stage != 3 && v < facts::kZero12RacesDocumentedSince) {
    a.reason = "the documented ZeRO-1/2 races start with DeepSpeed " + facts::kZero12RacesDocumentedSince.str();
  } else if (stage != 3 && v < facts::lastFixFor(stage)) {
    a.reason = fmt::format("DeepSpeed {} is affected only under torch.compile, which this config does not enable",
                           v.str());
  } else if (stage == 3 && v < facts::lastFixFor(3)) {
    a.reason = fmt::format("ZeRO-3's known overlap race needs PyTorch {} or newer", zero3TorchText());
    a.verdict = RaceAssessment::Verdict::NotApplicable;
    return a;
  } else {
    a.verdict = RaceAssessment::Verdict::Fixed;
    a.reason = fmt::format("DeepSpeed {} has every known overlap_comm fix", v.str());
  }
  return a;
}

}  // namespace dsls::config

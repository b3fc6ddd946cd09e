// overlap-comm-race: ZeRO-1/2 (and ZeRO-3 with PyTorch 2.10+) configs whose effective
// overlap_comm puts them on a DeepSpeed release with a known gradient race.
#include "analysis/config/overlap_race.h"
#include "analysis/config/race_fixes.h"
#include "analysis/config/release_range.h"
#include "analysis/config/rule.h"
#include "analysis/config/setting_names.h"

#include <fmt/format.h>

#include <algorithm>

namespace dsls::config {

using analysis::Finding;

namespace {

std::string describeFlag(std::string_view name, const Resolved<bool>& r) {
  std::string value = r.value ? (*r.value ? "true" : "false") : "unknown";
  std::string s = fmt::format("{} = {} ({}", name, value, provenanceLabel(r.provenance));
  if (!r.why.empty() && r.provenance != Provenance::Explicit) s += ": " + r.why;
  return s + ")";
}

// Where to put the squiggle: the key that sets overlap_comm, else stage, else the section.
analysis::TextRange anchor(const ZeroModel& z) {
  if (z.overlapComm.member) return z.overlapComm.member->keyRange;
  if (z.stage.member) return z.stage.member->keyRange;
  return z.section->keyRange;
}

std::string flagsOf(const ConfigModel& m) {
  return describeFlag("overlap_comm", m.zero.overlapComm) + " and " +
         describeFlag("contiguous_gradients", m.zero.contiguousGradients);
}

// "allocator-reuse on 0.18.6 to 0.18.9 (fixed in 0.19.0)": each bug with the releases it applies to.
std::string bugsByRelease(const json::Document& doc, const analysis::Settings& settings,
                          const std::vector<std::size_t>& present) {
  std::vector<std::pair<const RaceBug*, std::vector<std::size_t>>> bugs;
  for (std::size_t r : present) {
    analysis::Settings s = settings;
    s.deepspeedVersion = settings.deepspeedReleases[r];
    for (const RaceBug* bug : assessRace(buildModel(doc, s), s).bugs) {
      auto it = std::find_if(bugs.begin(), bugs.end(), [&](const auto& b) { return b.first == bug; });
      if (it == bugs.end()) it = bugs.insert(bugs.end(), {bug, {}});
      it->second.push_back(r);
    }
  }
  std::string s;
  for (const auto& [bug, releases] : bugs)
    s += fmt::format("{}{} on {}{} (fixed in {})", s.empty() ? "" : "; ", bug->id,
                     releaseRuns(settings.deepspeedReleases, releases), bug->needsTorchCompile ? " under torch.compile" : "",
                     bug->fixed);
  return s;
}

}  // namespace

std::string overlapRaceRangeMessage(const json::Document& doc, const analysis::Settings& settings,
                                    const std::vector<std::size_t>& present) {
  analysis::Settings first = settings;
  first.deepspeedVersion = settings.deepspeedReleases[present.front()];
  ConfigModel m = buildModel(doc, first);
  int stage = m.zero.stage.value.value_or(0);
  std::size_t n = settings.deepspeedReleases.size();
  std::string range = fmt::format("`{}`", settings.deepspeedRange);
  if (!settings.deepspeedVersionSource.empty()) range += fmt::format(" (from {})", settings.deepspeedVersionSource);
  std::string runs = releaseRuns(settings.deepspeedReleases, present);
  std::string which = present.size() == n ? fmt::format("every release {} allows ({}) has", range, runs)
                                          : fmt::format("{} of the {} releases {} allows ({}) {}", present.size(), n,
                                                        range, runs, present.size() == 1 ? "has" : "have");
  std::string upgrade = stage == 3 ? "0.18.8" : "0.19.3";
  return fmt::format(
      "ZeRO stage {} with {}: {} a known race in the overlapped gradient reduction that can corrupt gradients (NaN or "
      "zero loss, NaN grad_norm): {}. Set overlap_comm to false or upgrade DeepSpeed to {} or later.",
      stage, flagsOf(m), which, bugsByRelease(doc, settings, present), upgrade);
}

void checkOverlapCommRace(const RuleContext& ctx, std::vector<Finding>& out) {
  const ConfigModel& m = ctx.model;
  if (!m.zero.section) return;
  RaceAssessment a = assessRace(m, ctx.settings);
  using V = RaceAssessment::Verdict;
  if (a.verdict != V::AtRisk && a.verdict != V::VersionUnknown) return;

  int stage = *m.zero.stage.value;
  std::string flags = flagsOf(m);
  std::string message;
  if (stage == 3) {
    message = fmt::format(
        "ZeRO-3 with {}: DeepSpeed before 0.18.8 with PyTorch 2.10 or newer can reduce gradients before they are "
        "written, leaving NaN in weight partitions. {}; upgrade DeepSpeed to 0.18.8 or later.",
        flags, m.deepspeed ? describeVersion(m, ctx.settings) + " is affected" : "The DeepSpeed version is unknown");
  } else if (a.verdict == V::AtRisk) {
    std::string fixedIn = std::string(a.bugs.back()->fixed);
    message = fmt::format(
        "ZeRO stage {} with {}: {} has a known race in the overlapped gradient reduction that can corrupt gradients "
        "(NaN or zero loss, NaN grad_norm). Set overlap_comm to false or upgrade DeepSpeed to {} or later{}.",
        stage, flags, describeVersion(m, ctx.settings), fixedIn, fixedIn == "0.19.3" ? "" : " (0.19.3 for all fixes)");
  } else {
    message = fmt::format(
        "ZeRO stage {} with {}: DeepSpeed 0.8.0 through 0.18.x has races in the overlapped gradient reduction that "
        "can corrupt gradients (NaN or zero loss, NaN grad_norm); 0.19.0 to 0.19.2 only under torch.compile; fixed "
        "in 0.19.3{}. The DeepSpeed version is unknown: {}.",
        stage, flags, stage == 1 ? " (ZeRO-1 only from 0.13.0, when it started honouring the flag)" : "",
        howToSetDeepSpeedVersion(ctx.settings));
  }

  Finding f = makeFinding(RuleId::OverlapCommRace, message, anchor(m.zero));
  const Resolved<bool>& cg = m.zero.contiguousGradients;
  if (cg.member) {
    f.related.push_back({"", cg.member->keyRange, describeFlag("contiguous_gradients", cg)});
  } else if (m.zero.overlapComm.member) {
    // An implicit value belongs to the section that leaves it out.
    f.related.push_back({"", m.zero.section->keyRange, describeFlag("contiguous_gradients", cg)});
  }
  if (m.zero.overlapComm.member == nullptr && m.zero.stage.member)
    f.related.push_back({"", m.zero.stage.member->keyRange, "overlap_comm follows the stage: " + m.zero.overlapComm.why});
  if (auto fix = overlapCommOffFix(ctx.text, m, a.verdict == V::AtRisk)) f.fixes.push_back(std::move(*fix));
  if (auto fix = contiguousGradientsOffFix(ctx.text, m)) f.fixes.push_back(std::move(*fix));
  out.push_back(std::move(f));
}

}  // namespace dsls::config

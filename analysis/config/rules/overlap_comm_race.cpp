// overlap-comm-race: ZeRO-1/2 (and ZeRO-3 with PyTorch 2.10+) configs whose effective
// overlap_comm puts them on a DeepSpeed release with a known gradient race.
#include "analysis/config/overlap_race.h"
#include "analysis/config/race_fixes.h"
#include "analysis/config/rule.h"
#include "analysis/config/setting_names.h"

#include <fmt/format.h>

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

}  // namespace

void checkOverlapCommRace(const RuleContext& ctx, std::vector<Finding>& out) {
  const ConfigModel& m = ctx.model;
  if (!m.zero.section) return;
  RaceAssessment a = assessRace(m, ctx.settings);
  using V = RaceAssessment::Verdict;
  if (a.verdict != V::AtRisk && a.verdict != V::VersionUnknown) return;

  int stage = *m.zero.stage.value;
  std::string flags = describeFlag("overlap_comm", m.zero.overlapComm) + " and " +
                      describeFlag("contiguous_gradients", m.zero.contiguousGradients);
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

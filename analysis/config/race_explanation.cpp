// The overlap_comm race in plain words, with this config's effective values and versions.
#include "analysis/config/config_features.h"
#include "analysis/config/overlap_race.h"

#include <fmt/format.h>

namespace dsls::config {

namespace {

std::string flagLine(std::string_view name, const Resolved<bool>& r) {
  std::string value = r.value ? (*r.value ? "true" : "false") : "unknown";
  std::string line = fmt::format("- `{}` = **{}** ({}", name, value, provenanceLabel(r.provenance));
  if (!r.why.empty()) line += ": " + r.why;
  return line + ")\n";
}

}  // namespace

std::string raceExplanation(const ConfigModel& m, const analysis::Settings& settings) {
  std::string s;
  s += "**Effective values**\n\n";
  s += fmt::format("- ZeRO stage = **{}** ({}{})\n", m.zero.stage.value ? std::to_string(*m.zero.stage.value) : "unknown",
                   provenanceLabel(m.zero.stage.provenance), m.zero.stage.why.empty() ? "" : ": " + m.zero.stage.why);
  s += flagLine("overlap_comm", m.zero.overlapComm);
  s += flagLine("contiguous_gradients", m.zero.contiguousGradients);
  s += fmt::format("- {}; PyTorch {}\n\n", describeVersion(m, settings),
                   m.torch ? m.torch->str() : std::string("unknown"));

  s += "**The race.** With `overlap_comm`, ZeRO-1 and ZeRO-2 reduce gradients on a separate CUDA stream while "
       "backward keeps running. With `contiguous_gradients` too, finished gradients are copied into two bucket "
       "buffers used in turn: one is being reduced while the other fills. This is only correct if the compute "
       "stream and the reduction stream wait for each other at the right points. Several releases missed one of "
       "those waits, so a buffer could be overwritten or its memory reused while a reduction still read it. The "
       "result is silently wrong gradients: NaN or zero loss, `grad_norm` NaN or stuck, or runs that should match "
       "but diverge.\n\n";
  s += "| bug | stages | affected | fixed in | needs contiguous_gradients | sources |\n|---|---|---|---|---|---|\n";
  for (const RaceBug& bug : raceBugs()) {
    std::string stages;
    for (int st : bug.stages) stages += (stages.empty() ? "" : ", ") + std::to_string(st);
    std::string affected = bug.introduced.empty() ? "releases before " + std::string(bug.fixed)
                                                  : "from " + std::string(bug.introduced);
    if (bug.needsTorchCompile) affected += ", under torch.compile";
    if (!bug.minTorch.empty()) affected += ", with PyTorch " + std::string(bug.minTorch) + "+";
    s += fmt::format("| {} | {} | {} | {} | {} | {} |\n", bug.summary, stages, affected, bug.fixed,
                     bug.needsContiguous ? "yes" : "no", bug.links);
  }
  s += "\nZeRO-1 ignored both flags before 0.13.0. ZeRO-3 copies gradients on the same stream that reduces them, so "
       "it has no double-buffer race; its one known overlap issue needs PyTorch 2.10 or newer. The \"v0.14.0 "
       "fix\" sometimes quoted does not exist: the fixes are in 0.14.3, 0.17.5/0.18.5, 0.19.0 and 0.19.3.\n\n";

  RaceAssessment a = assessRace(m, settings);
  s += "**This config:** ";
  switch (a.verdict) {
    case RaceAssessment::Verdict::AtRisk: s += "at risk on the target DeepSpeed release.\n\n"; break;
    case RaceAssessment::Verdict::VersionUnknown:
      s += "at risk unless DeepSpeed is 0.19.3 or newer (the version is not known; set `dsls.deepspeedVersion` or pin "
           "it in requirements.txt).\n\n";
      break;
    default: s += "not affected: " + a.reason + ".\n\n"; break;
  }
  s += "**Fix.** Set `overlap_comm` to `false`: every ZeRO-1/2 variant needs the side stream, so this avoids them all, "
       "at the cost of reductions no longer overlapping backward. Or upgrade DeepSpeed to 0.19.3 or later (0.19.0 if "
       "you do not use torch.compile). Setting `contiguous_gradients` to `false` avoids the bucket races but not the "
       "allocator one, and ZeRO-1/2 turn it back on when the optimizer is offloaded.\n\n";
  s += "**Verify.** Print the installed release with `python -c \"import deepspeed; print(deepspeed.__version__)\"`. "
       "At start-up DeepSpeed prints the resolved `zero_config` line: check `overlap_comm=False` there. Then run a "
       "few hundred steps with the flag off and on from the same seed and compare `loss` and `grad_norm`: with the "
       "fix they track each other and `grad_norm` stays finite.\n";
  return s;
}

}  // namespace dsls::config

#include "analysis/logs/diagnosis/numerics_notes.h"

#include "analysis/facts/rule_id.h"

#include <algorithm>

#include <fmt/format.h>

#include "analysis/facts/overlap_race_releases.h"

namespace dsls::logs {
namespace {

using analysis::Version;
using facts::RaceBug;
using facts::RaceBugKind;

constexpr Version v(int a, int b, int c) { return Version{a, b, c}; }

// "2.10.0" -> "2.10", as release lines are usually named in prose.
std::string releaseLine(const Version& r) { return r.patch == 0 ? fmt::format("{}.{}", r.major, r.minor) : r.str(); }

// "a", "a and b", "a, b and c".
std::string joinAnd(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

// The ZeRO-1/2 races the run's flags leave open (torch.compile is not in the log, so its race counts).
std::vector<const RaceBug*> zero12Races(const RunConfig& run) {
  std::vector<const RaceBug*> out;
  for (const RaceBug& bug : facts::raceBugs())
    if (facts::hitsStage(bug, 2) && !(bug.needsContiguous && run.contiguousGradients == false)) out.push_back(&bug);
  return out;
}

std::vector<const RaceBug*> zero12RacesIn(const RunConfig& run, const Version& deepspeed) {
  std::vector<const RaceBug*> out;
  for (const RaceBug* bug : zero12Races(run))
    if (facts::affectsRelease(*bug, 2, deepspeed)) out.push_back(bug);
  return out;
}

// "predates the fix for ..." and "has the ... bug" wording of one race in this release.
struct RacePhrase {
  bool predates;
  std::string text;
};

RacePhrase racePhrase(const RaceBug& bug) {
  const Version fixed = facts::fixedIn(bug);
  switch (bug.kind) {
    case RaceBugKind::AllocatorReuse:
      return {true, fmt::format("the fix for reduction buffers being recycled while still in use ({})", bug.fixed)};
    case RaceBugKind::ReverseWait:
      return {true, fmt::format("the missing wait before a bucket is reused ({})", bug.fixed)};
    case RaceBugKind::PingPongIndex: {
      const std::string last = fixed.patch > 0 ? Version{fixed.major, fixed.minor, fixed.patch - 1}.str()
                                               : "before " + fixed.str();
      return {false, fmt::format("the ping-pong buffer index bug ({} to {})", bug.introduced, last)};
    }
    case RaceBugKind::CompileStreams:
      return {false, fmt::format("the race that appears under torch.compile (fixed in {})", bug.fixed)};
    case RaceBugKind::Zero3GradStream: break;
  }
  return {false, std::string(bug.summary)};
}

// "DeepSpeed 0.14.0 predates the fix for ... (0.19.0) and the missing wait ... (0.14.3)."
std::string affectedReleaseText(const RunConfig& run, std::vector<const RaceBug*> bugs) {
  // The torch.compile race is named only when no other race is open: the log cannot show torch.compile.
  const bool onlyCompile = std::all_of(bugs.begin(), bugs.end(), [](const RaceBug* b) { return b->needsTorchCompile; });
  if (!onlyCompile) std::erase_if(bugs, [](const RaceBug* b) { return b->needsTorchCompile; });
  std::sort(bugs.begin(), bugs.end(),
            [](const RaceBug* a, const RaceBug* b) { return facts::fixedIn(*b) < facts::fixedIn(*a); });
  std::vector<std::string> predates, has;
  for (const RaceBug* bug : bugs) {
    RacePhrase p = racePhrase(*bug);
    (p.predates ? predates : has).push_back(std::move(p.text));
  }
  std::string t = "DeepSpeed " + run.deepspeedText;
  if (!predates.empty()) t += " predates " + fmt::format("{}", fmt::join(predates, " and "));
  if (!has.empty()) t += (predates.empty() ? " still has " : " and has ") + fmt::format("{}", fmt::join(has, " and "));
  return t + ".";
}

std::string unknownVersionText(const RunConfig& run) {
  std::vector<const RaceBug*> bugs = zero12Races(run);
  std::sort(bugs.begin(), bugs.end(),
            [](const RaceBug* a, const RaceBug* b) { return facts::fixedIn(*a) < facts::fixedIn(*b); });
  std::vector<std::string> fixes;
  for (const RaceBug* bug : bugs)
    fixes.push_back(std::string(bug->fixed) + (bug->needsTorchCompile ? " (torch.compile)" : ""));
  return fmt::format("The DeepSpeed version is not in the log; the known races were fixed in {}.", joinAnd(fixes));
}

void noteZero3(const RunConfig& run, NumericsNotes& out) {
  const RaceBug& bug = facts::raceBug(RaceBugKind::Zero3GradStream);
  const Version minTorch = *facts::minTorchOf(bug);
  const bool newTorch = run.torch && *run.torch >= minTorch;
  const bool oldDeepSpeed = !run.deepspeed || facts::affectsRelease(bug, 3, *run.deepspeed);
  const bool layoutAllows = !(bug.needsContiguous && run.contiguousGradients == false);
  if (newTorch && oldDeepSpeed && layoutAllows) {
    out.notes.push_back(fmt::format(
        "ZeRO-3 with overlap_comm on PyTorch {}: DeepSpeed before {} made the reduce stream wait on the default "
        "stream although autograd can produce gradients on another one, which has put NaN into weight partitions "
        "(fixed in {}). The log alone cannot prove this race.",
        run.torchText, bug.fixed, bug.fixed));
    out.configKeys = {"zero_optimization.overlap_comm", "zero_optimization.contiguous_gradients"};
    out.ruleCodes = {std::string(config::ruleCode(config::RuleId::OverlapCommRace))};
    return;
  }
  out.notes.push_back(fmt::format(
      "overlap_comm is on by default in ZeRO-3. The buffer races known for overlap_comm are in ZeRO-1/2; the ZeRO-3 "
      "stream race needs PyTorch {} or newer with DeepSpeed before {}, which this run does not show.",
      releaseLine(minTorch), bug.fixed));
}

// A known release in which none of the ZeRO-1/2 races applies to these flags.
void noteNoOpenRace(const RunConfig& run, NumericsNotes& out) {
  const Version d = *run.deepspeed;
  if (d >= facts::lastFixFor(2)) {
    out.notes.push_back(fmt::format(
        "overlap_comm is on, but DeepSpeed {} contains every known fix for the overlap_comm races (the last in "
        "{}); look for another cause.",
        run.deepspeedText, facts::lastFixFor(2).str()));
  } else if (d < facts::kZero12RacesDocumentedSince) {
    out.notes.push_back(fmt::format(
        "overlap_comm is on, but the documented overlap_comm races start with DeepSpeed {} and this run has "
        "DeepSpeed {}; look for another cause.",
        facts::kZero12RacesDocumentedSince.str(), run.deepspeedText));
  } else {
    out.notes.push_back(fmt::format(
        "overlap_comm is on, but with contiguous_gradients = false DeepSpeed {} has none of the known overlap_comm "
        "races (the one left before {} needs contiguous_gradients); look for another cause.",
        run.deepspeedText, facts::lastFixFor(2).str()));
  }
  out.configKeys = {"zero_optimization.overlap_comm"};
}

void noteZero12Candidate(const RunConfig& run, const std::string& versionText, const char* source,
                         NumericsNotes& out) {
  std::string flags = "zero_optimization.overlap_comm = true";
  if (run.zeroStage) flags += fmt::format(" with ZeRO stage {}", *run.zeroStage);
  if (run.contiguousGradients) flags += fmt::format(" and contiguous_gradients = {}", *run.contiguousGradients);
  out.notes.push_back(fmt::format(
      "The run has {} (from {}). ZeRO-1/2 with overlap_comm has had races between the gradient reduction stream "
      "and backward that give exactly these symptoms: NaN or infinite grad_norm, loss 0.0, grad_norm stuck at "
      "1.4142135623730951. {} The log alone cannot prove the race; rerunning the same steps with overlap_comm set "
      "to false tells.",
      flags, source, versionText));
  out.configKeys = {"zero_optimization.overlap_comm", "zero_optimization.contiguous_gradients"};
  out.ruleCodes = {std::string(config::ruleCode(config::RuleId::OverlapCommRace))};
  out.verify =
      "Rerun from the same checkpoint and seed with \"overlap_comm\": false in zero_optimization and compare "
      "grad_norm over the same steps; `dsls check` on the config reports the version-specific risk.";
}

void noteOverlapOn(const RunConfig& run, const char* source, NumericsNotes& out) {
  const std::optional<int> stage = run.zeroStage;
  if (stage == 3) return noteZero3(run, out);
  if (stage == 0) return;  // ZeRO disabled: overlap_comm has no effect
  if (stage == 1 && run.deepspeed && *run.deepspeed < facts::kZero1HonoursOverlapSince) {
    out.notes.push_back(fmt::format("ZeRO-1 ignored overlap_comm before DeepSpeed {}, so the overlap_comm races do "
                                    "not apply to this run.",
                                    facts::kZero1HonoursOverlapSince.str()));
    return;
  }
  if (!run.deepspeed) return noteZero12Candidate(run, unknownVersionText(run), source, out);
  const std::vector<const RaceBug*> open = zero12RacesIn(run, *run.deepspeed);
  if (open.empty()) return noteNoOpenRace(run, out);
  noteZero12Candidate(run, affectedReleaseText(run, open), source, out);
}

void noteOverlap(const RunConfig& run, NumericsNotes& out) {
  const char* source = run.configFromLog ? "DeepSpeed's config dump in this log" : "the config given with the log";
  std::optional<bool> overlap = run.overlapComm;
  if (run.pipelineDisabledOverlap) overlap = false;
  if (overlap == true) return noteOverlapOn(run, source, out);
  if (overlap == false) {
    out.notes.push_back(run.pipelineDisabledOverlap
                            ? "Pipeline parallelism turned overlap_comm off, which rules out the overlap_comm races."
                            : fmt::format("overlap_comm is off in this run (from {}), which rules out the "
                                          "overlap_comm races.",
                                          source));
    return;
  }
  out.notes.push_back(fmt::format(
      "The log does not show the resolved zero_config (DeepSpeed prints it at start-up), so it is unknown whether "
      "overlap_comm was on. With ZeRO-1/2, overlap_comm = true and DeepSpeed older than {} the overlap_comm races "
      "are a candidate cause.",
      facts::lastFixFor(2).str()));
}

void noteBf16WithoutOverflowCheck(const RunConfig& run, NumericsNotes& out) {
  if (run.bf16 != true || run.sawOverflowLines) return;
  const bool checkOff = run.checkGradOverflow == false;
  const bool oldDefault = !run.checkGradOverflow && (!run.deepspeed || *run.deepspeed < v(0, 19, 3));
  if (!checkOff && !oldDefault) return;
  out.notes.push_back(
      "bf16 is enabled and the log has no overflow lines: unless bf16.check_grad_overflow is true (available from "
      "DeepSpeed 0.17.1, the default from 0.19.3) a step with non-finite gradients is applied and corrupts the "
      "weights.");
  out.configKeys.push_back("bf16.check_grad_overflow");
}

void noteClippingTurnsInfIntoNan(const RunConfig& run, NumericsNotes& out) {
  if (!run.deepspeed || *run.deepspeed < v(0, 13, 2) || *run.deepspeed >= v(0, 16, 6)) return;
  if (run.gradientClipping.value_or(1.0) <= 0.0) return;
  out.notes.push_back(fmt::format(
      "DeepSpeed {} (0.13.2 to 0.16.5) turns an infinite gradient norm into NaN while clipping (fixed in 0.16.6), "
      "so a single overflowing step shows as grad_norm nan.",
      run.deepspeedText));
}

void noteFp16SkippedSteps(const RunConfig& run, NumericsNotes& out) {
  if (run.fp16 != true || !run.sawOverflowLines) return;
  out.notes.push_back(
      "With fp16, steps with non-finite gradients are skipped as overflows (see the OVERFLOW lines): a non-finite "
      "value on a skipped step is expected, a loss scale that keeps falling is not.");
}

}  // namespace

NumericsNotes numericsNotes(const RunConfig& run) {
  NumericsNotes out;
  noteOverlap(run, out);
  noteBf16WithoutOverflowCheck(run, out);
  noteClippingTurnsInfIntoNan(run, out);
  noteFp16SkippedSteps(run, out);
  return out;
}

}  // namespace dsls::logs

// One report finding per recorded failure: the catalogue text, the details of this run,
// and why its rank is (or is not) the initiating one. Also the findings that have no
// accumulator: a desync across ranks and torchrun's failure summary.
#include <algorithm>

#include <fmt/format.h>

#include "analysis/logs/diagnosis/diagnosis_steps.h"

namespace dsls::logs::detail {
namespace {

void appendUnique(std::vector<std::string>& to, const std::vector<std::string>& from) {
  for (const auto& k : from)
    if (std::find(to.begin(), to.end(), k) == to.end()) to.push_back(k);
}

}  // namespace

void appendNote(LogFinding& f, const std::string& note) {
  if (note.empty()) return;
  f.mechanism += f.mechanism.find("\n\nIn this log: ") == std::string::npos ? "\n\nIn this log: " : " ";
  f.mechanism += note;
}

namespace {

// The catalogue text of the finding, with the details recorded for this run.
LogFinding baseFinding(const Accumulator& a) {
  const FailureInfo& info = failureInfo(a.failure);
  LogFinding f;
  f.id = a.id;
  f.title = a.title;
  f.severity = a.severity;
  f.collateral = a.tier == Tier::Collateral;
  f.evidence = a.evidence;
  f.evidenceTotal = a.total;
  f.mechanism = std::string(info.mechanism);
  f.fix = std::string(info.fix);
  f.verify = std::string(info.verify);
  f.configKeys = splitList(info.configKeys);
  appendUnique(f.configKeys, a.configKeys);
  f.ruleCodes = splitList(info.ruleCodes);
  std::string details;
  auto sentence = [&details](std::string_view s) {
    if (!details.empty()) details += ' ';
    details += s;
  };
  for (const auto& d : a.details) sentence(d);
  if (const std::string_view phase = tb::phaseName(a.phase); !phase.empty())
    sentence(fmt::format("It was raised during {}.", phase));
  if (!a.frames.empty()) sentence(fmt::format("Innermost frames: {}.", fmt::join(a.frames, " → ")));
  appendNote(f, details);
  return f;
}

bool isMetricFinding(FailureId failure) {
  return failure == FailureId::NanGradNorm || failure == FailureId::NanLoss || failure == FailureId::LossStuckZero ||
         failure == FailureId::GradNormStuck;
}

// NaN, zero-loss and stuck-norm findings: how much of the run they cover, and the notes
// tied to the run's flags and versions (overlap_comm races, bf16 without overflow checks).
void explainMetricFinding(const State& s, const Accumulator& a, bool isRoot, const RunConfig& run, LogFinding& f) {
  if (a.total > 1) appendNote(f, fmt::format("{} of {} metric lines are affected.", a.total, s.numerics.metricLines));
  const NumericsNotes notes = numericsNotes(run);
  if (!notes.notes.empty()) f.mechanism += fmt::format("\n\nFor this run: {}", fmt::join(notes.notes, " "));
  appendUnique(f.configKeys, notes.configKeys);
  appendUnique(f.ruleCodes, notes.ruleCodes);
  if (!notes.verify.empty()) f.verify = notes.verify;
  if (!isRoot)
    f.rankReason = "These values are printed by rank 0 only, after gradients are combined across ranks; the "
                   "log does not show which rank produced them.";
}

void explainOverflowSkips(const State& s, LogFinding& f) {
  const NumericsState& n = s.numerics;
  const double ratio = n.lastStep && *n.lastStep > 0 && n.lastSkipped
                           ? static_cast<double>(*n.lastSkipped) / static_cast<double>(*n.lastStep)
                           : 0.0;
  const bool frequent = n.overflowLines > 10 || ratio > 0.1 || n.floorHits > 0;
  f.severity = frequent ? analysis::Severity::Warning : analysis::Severity::Information;
  std::string d = fmt::format("{} overflow line{}", n.overflowLines, n.overflowLines == 1 ? "" : "s");
  if (n.minScale) d += fmt::format("; the scale went down to {:g}", *n.minScale);
  if (n.lastStep && n.lastSkipped)
    d += fmt::format("; the last progress line shows step={}, skipped={}", *n.lastStep, *n.lastSkipped);
  d += frequent ? ". That is more than start-up calibration." : ". A few early skips are normal.";
  appendNote(f, d);
  f.rankReason = "DeepSpeed prints OVERFLOW lines on rank 0 only; the overflow flag is combined across ranks, "
                 "so the line does not name a failing rank.";
}

std::vector<std::string> timeoutNotes(const State& s, const RootChoice& root, const WatchdogAnalysis& w) {
  std::vector<std::string> notes;
  if (!w.timeoutRanks.empty())
    notes.push_back(fmt::format("Rank{} {} reported a timeout.", w.timeoutRanks.size() > 1 ? "s" : "",
                                joinRanks(w.timeoutRanks)));
  if (s.unrankedTimeouts > 0)
    notes.push_back(
        fmt::format("{} timeout line{} carry no rank.", s.unrankedTimeouts, s.unrankedTimeouts == 1 ? "" : "s"));
  if (w.timeoutMs > 0)
    notes.push_back(fmt::format("The timeout is {} ms ({}); the waiting collective started about that long before "
                                "each line.",
                                w.timeoutMs, formatDuration(static_cast<double>(w.timeoutMs) / 1000.0)));
  if (!w.severalSeqRanks.empty())
    notes.push_back(fmt::format("Rank{} {} timed out at several SeqNums, so the timeouts come from more than one "
                                "process group; SeqNums of different groups cannot be compared across ranks.",
                                w.severalSeqRanks.size() > 1 ? "s" : "", joinRanks(w.severalSeqRanks)));
  if (w.skew) notes.push_back("The ranks are not waiting in the same collective: " + w.skewText + ".");
  else if (w.groups.size() == 1 && w.timeoutRanks.size() > 1)
    notes.push_back(fmt::format("All of them wait in the same collective ({}){}.",
                                opText(w.groups.begin()->first.first, w.groups.begin()->first.second),
                                root.root ? "" : ": a rank is stuck elsewhere or the network failed"));
  return notes;
}

// Which rank the timeouts point at: the initiating failure's, the desync's odd one, the one
// rank without a timeout line, or none.
void timeoutRankReason(const State& s, const RootChoice& root, const WatchdogAnalysis& w, LogFinding& f) {
  if (root.root) {
    f.initiatingRank = root.rank.rank;
    f.rankReason = fmt::format("These timeouts are consequences of {} ({}){}.", root.root->id,
                               firstLineRef(s, *root.root), root.rank.rank ? fmt::format(" on rank {}", *root.rank.rank) : "");
  } else if (root.desync) {
    f.initiatingRank = w.skewSuspect;
    f.rankReason = "See nccl-desync: the ranks were in different collectives.";
  } else if (w.missing.size() == 1) {
    f.initiatingRank = w.missing[0];
    f.rankReason = fmt::format("Suspect: rank {} is the only rank in 0–{} that did not report a timeout, so it "
                               "is the one not taking part in the collective. Its own error is not in this log.",
                               w.missing[0], w.maxRank);
  } else if (!w.missing.empty()) {
    f.rankReason = fmt::format("Ranks {} did not report a timeout; any of them may have stopped first (or their "
                               "output is not in this log).",
                               joinRanks(w.missing));
  } else if (!w.timeoutRanks.empty()) {
    f.rankReason = w.worldKnown ? "Every rank reported the timeout on the same collective, so no rank stands out: "
                                  "suspect a rank stuck outside collectives before it, or the network."
                                : "Every rank seen reported a timeout. The world size is not in the log, so a silent "
                                  "rank above the highest one seen cannot be ruled out.";
  } else {
    f.rankReason = "The timeout lines carry no rank prefix.";
  }
}

void explainTimeouts(const State& s, const RootChoice& root, const WatchdogAnalysis& w, LogFinding& f) {
  f.collateral = true;
  f.collateralRanks = w.timeoutRanks;
  for (const auto& n : timeoutNotes(s, root, w)) appendNote(f, n);
  timeoutRankReason(s, root, w, f);
}

// Findings with their own rank story, by failure.
void explainByKind(const State& s, const Accumulator& a, const RootChoice& root, const WatchdogAnalysis& w,
                   const RunConfig& run, LogFinding& f) {
  const bool isRoot = root.isRoot(a);
  const Accumulator* r = root.root;
  if (isMetricFinding(a.failure)) return explainMetricFinding(s, a, isRoot, run, f);
  switch (a.failure) {
    case FailureId::Fp16OverflowSkips: return explainOverflowSkips(s, f);
    case FailureId::Fp16LossScaleFloor:
      if (!isRoot) f.rankReason = "DeepSpeed prints loss-scale lines on rank 0 only; they do not name a failing rank.";
      return;
    case FailureId::NcclWatchdogTimeout: return explainTimeouts(s, root, w, f);
    case FailureId::NcclProcessAbort:
      f.collateral = true;
      f.collateralRanks = a.ranks.ranks;
      f.rankReason = r ? fmt::format("Consequence of {} ({}).", r->id, firstLineRef(s, *r))
                       : "These processes were taken down after a failed collective; the lines do not name the "
                         "rank that caused it.";
      return;
    case FailureId::WorkerExit:
      if (isRoot) return;
      if (r || !w.timeoutRanks.empty()) f.collateral = true;
      f.rankReason = r ? fmt::format("Exit codes reported after {} ({}).", r->id, firstLineRef(s, *r))
                       : "The exit lines come from the launcher, which does not reliably say which worker failed.";
      return;
    case FailureId::IncompleteTraceback:
      f.rankReason = a.firstRank ? fmt::format("The traceback is on rank {}, but its exception is missing.", *a.firstRank)
                                 : "The traceback has no rank prefix and no exception line.";
      return;
    default: return;
  }
}

// A primary failure that was not chosen says why.
void explainNotChosen(const State& s, const Accumulator& a, const RootChoice& root, LogFinding& f) {
  if (root.isRoot(a) || !f.rankReason.empty() || a.tier != Tier::Primary) return;
  const Accumulator* r = root.root;
  if (a.firstRank) {
    f.initiatingRank = std::nullopt;
    f.rankReason = fmt::format("First seen on rank {} ({}); not chosen as the initiating failure because {}.",
                               *a.firstRank, firstLineRef(s, a),
                               r ? fmt::format("{} ({}) came first", r->id, firstLineRef(s, *r))
                                 : std::string("another failure was chosen"));
  } else if (r) {
    f.rankReason = fmt::format("Not chosen as the initiating failure: {} ({}) came first.", r->id, firstLineRef(s, *r));
  }
}

}  // namespace

LogFinding findingFor(const State& s, const Accumulator& a, const RootChoice& root, const WatchdogAnalysis& w,
                      const RunConfig& run) {
  LogFinding f = baseFinding(a);
  if (root.isRoot(a)) {
    f.initiating = true;
    f.collateral = false;
    f.initiatingRank = root.rank.rank;
    f.rankReason = root.rank.reason;
    f.rankScope = root.rank.scope;
    f.scopeRanks = root.rank.ranks;
    f.collateralRanks = root.collateralRanks;
    appendNote(f, timingNote(a, w));
  }
  explainByKind(s, a, root, w, run, f);
  explainNotChosen(s, a, root, f);
  if (!f.rankScope && a.tier == Tier::Primary && failureInfo(a.failure).rankIndependent) {
    f.rankScope = RankScope::All;
    f.scopeRanks = a.ranks.ranks;
  }
  return f;
}

LogFinding desyncFinding(const State& s, const RootChoice& root, const WatchdogAnalysis& w) {
  const FailureInfo& info = failureInfo(FailureId::NcclDesync);
  LogFinding f;
  f.id = std::string(info.id);
  f.title = std::string(info.title);
  f.severity = info.severity;
  f.initiating = true;
  f.initiatingRank = w.skewSuspect;
  f.rankScope = w.skewSuspect ? RankScope::One : RankScope::Unknown;
  if (w.behindRank)
    f.rankReason = fmt::format("Rank {} is behind: {}. With one rank on each side the sequence numbers do not say "
                               "which one stopped: the rank behind may have stalled, or the other gone ahead past a "
                               "collective it did not finish; no initiating rank is named.",
                               *w.behindRank, w.skewText);
  else if (w.skewSuspect)
    f.rankReason = fmt::format("Rank {} is the odd one out: {}. It is behind the others or on a different code path.",
                               *w.skewSuspect, w.skewText);
  else
    f.rankReason = "The ranks split into several groups (" + w.skewText + "), so no single rank stands out.";
  f.collateralRanks = root.collateralRanks;
  f.mechanism = std::string(info.mechanism);
  appendNote(f, w.skewText + ".");
  f.fix = std::string(info.fix);
  f.verify = std::string(info.verify);
  if (const Accumulator* timeouts = findAccumulator(s, FailureId::NcclWatchdogTimeout)) {
    f.evidence = timeouts->evidence;
    f.evidenceTotal = timeouts->total;
  }
  return f;
}

LogFinding torchrunSummaryFinding(const State& s) {
  const FailureInfo& info = failureInfo(FailureId::TorchrunFailureSummary);
  LogFinding f;
  f.id = std::string(info.id);
  f.title = std::string(info.title);
  f.severity = info.severity;
  f.mechanism = std::string(info.mechanism);
  f.fix = std::string(info.fix);
  f.verify = std::string(info.verify);
  std::vector<std::string> details;
  for (const auto& e : s.torchrunEntries) {
    if (e.evidence && f.evidence.size() < limits::kEvidencePerFinding) f.evidence.push_back(*e.evidence);
    ++f.evidenceTotal;
    if (!e.rootCause || !e.exitCode) continue;
    std::string rank = e.rank ? fmt::format("rank {}", *e.rank) : std::string("an unknown rank");
    std::string meaning;
    if (*e.exitCode == -6) meaning = "SIGABRT, the NCCL watchdog's abort or a C++ abort, not a cause by itself";
    else if (*e.exitCode == -9) meaning = "SIGKILL, usually the host OOM killer";
    else if (*e.exitCode == -15) meaning = "SIGTERM, stopped by the launcher";
    else if (*e.exitCode == 1) meaning = "an uncaught Python exception";
    else if (const std::string_view crash = crashSignalName(*e.exitCode); !crash.empty())
      meaning = std::string(crash) + ", a crash of the process itself";
    details.push_back(fmt::format("The summary lists {} first with exit code {}{}.", rank, *e.exitCode,
                                  meaning.empty() ? "" : " (" + meaning + ")"));
  }
  f.rankReason = torchrunRootCauseRank(s)
                     ? "torchrun's root-cause entry (exit code 1 or a crash signal, no other failures) gives the "
                       "initiating rank: see the worker-exit finding."
                     : "torchrun's root-cause entry is the first exit it observed; the analysis does not take the "
                       "rank from it.";
  for (const auto& d : details) appendNote(f, d);
  return f;
}

}  // namespace dsls::logs::detail

// Turns the accumulated observations into a report: chooses the initiating
// failure by the rules for multi-rank logs (earliest non-collective failure
// wins; watchdog timeouts are collateral; ranks missing from the timeout lines
// are suspects; SeqNum/OpType skew means the ranks are out of step; torchrun's
// "Root Cause" is only the first observed exit; rank-0-only lines name no rank).
// When the log does not support a cause, the report says so instead of guessing.
// The steps are in diagnosis_*.cpp (see diagnosis_steps.h).
#include <algorithm>

#include <fmt/format.h>

#include "analysis/logs/diagnosis/diagnosis_steps.h"

namespace dsls::logs::detail {

std::string joinRanks(const std::vector<int>& ranks, std::size_t max) {
  std::string out;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    if (shown >= max) {
      out += fmt::format("… ({} more)", ranks.size() - i);
      break;
    }
    out += j - i >= 2 ? fmt::format("{}–{}", ranks[i], ranks[j]) : std::to_string(ranks[i]);
    if (j - i == 1) out += ", " + std::to_string(ranks[j]);
    shown += j - i + 1;
    i = j + 1;
  }
  return out;
}

std::string formatDuration(double seconds) {
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.1f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

namespace {

// What the log says about the run, before any failure is chosen.
LogReport reportFacts(const State& s) {
  LogReport r;
  r.linesRead = s.lineNo;
  r.bytesRead = s.bytes;
  r.deepspeedVersion = s.facts.deepspeedVersion ? s.facts.deepspeedVersion : s.options.deepspeedVersion;
  r.torchVersion = s.facts.torchVersion ? s.facts.torchVersion : s.options.torchVersion;
  r.ncclVersion = s.facts.ncclVersion;
  r.worldSize = s.facts.worldSize;
  r.resolvedConfig = s.facts.resolvedConfig;
  RankSet seen;
  for (const auto& st : s.streams)
    if (st.rank) seen.add(*st.rank);
  r.ranksSeen = seen.ranks;
  return r;
}

// With fp16, a non-finite norm on a step DeepSpeed skipped as an overflow is
// expected: as many NaN norms as overflow lines, and a finite loss, is context.
void demoteNanNormsOnSkippedSteps(State& s) {
  Accumulator* nan = findAccumulator(s, FailureId::NanGradNorm);
  if (!nan || s.numerics.overflowLines == 0 || nan->total > s.numerics.overflowLines ||
      findAccumulator(s, FailureId::NanLoss))
    return;
  nan->tier = Tier::Advisory;
  nan->severity = analysis::Severity::Information;
  addDetail(nan, fmt::format("There are {} OVERFLOW line(s) for {} non-finite norm(s): these are probably the "
                             "steps DeepSpeed skipped.",
                             s.numerics.overflowLines, nan->total));
}

// Initiating first, then by severity, then by first evidence line.
void sortFindings(std::vector<LogFinding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const LogFinding& a, const LogFinding& b) {
    if (a.initiating != b.initiating) return a.initiating;
    if (a.severity != b.severity) return static_cast<int>(a.severity) < static_cast<int>(b.severity);
    const std::size_t la = a.evidence.empty() ? 0 : a.evidence.front().seq;
    const std::size_t lb = b.evidence.empty() ? 0 : b.evidence.front().seq;
    return la < lb;
  });
}

std::string initiatingVerdict(const State& s, const LogFinding& initiating, const RootChoice& root) {
  const std::string line = initiating.evidence.empty() ? lineRef(s, 0, std::nullopt) : lineRef(s, initiating.evidence.front());
  const bool numeric = root.root && root.root->tier == Tier::Numeric;
  std::string v = numeric ? fmt::format("No process failure found; the main problem is \"{}\" (`{}`), first at {}.",
                                        initiating.title, initiating.id, line)
                          : fmt::format("Initiating failure: \"{}\" (`{}`) at {}, {}.", initiating.title,
                                        initiating.id, line,
                                        initiating.initiatingRank ? fmt::format("rank {}", *initiating.initiatingRank)
                                        : initiating.rankScope == RankScope::All ? std::string("every rank")
                                        : "rank " + rankLabel(initiating));
  if (!initiating.collateralRanks.empty())
    v += fmt::format(" Collateral: rank{} {} (timeouts, aborts or exits that follow from it).",
                     initiating.collateralRanks.size() > 1 ? "s" : "", joinRanks(initiating.collateralRanks));
  return v;
}

std::string verdictFor(const State& s, const LogReport& r, const RootChoice& root, const WatchdogAnalysis& w) {
  if (const LogFinding* initiating = r.initiatingFinding()) return initiatingVerdict(s, *initiating, root);
  if (!w.timeoutRanks.empty() || s.unrankedTimeouts > 0 || findAccumulator(s, FailureId::NcclProcessAbort)) {
    std::string v = "The initiating failure is not in this log: every error found is a collective timeout or abort, "
                    "which are consequences of another failure.";
    if (w.missing.size() == 1 && !w.timeoutRanks.empty())
      v += fmt::format(" Suspect: rank {}, the only rank without a timeout line; look for its own output.",
                       w.missing[0]);
    return v;
  }
  if (!s.exits.empty())
    return "Workers exited with errors, but the initiating failure is not in this log (no exception, OOM or "
           "collective error was found).";
  if (findAccumulator(s, FailureId::IncompleteTraceback))
    return "No initiating failure found: a traceback has no exception line, so its cause cannot be read from this "
           "log.";
  if (!r.findings.empty()) return "No failure found; the findings below are warnings or context.";
  return fmt::format("No failure found in {} line{}.", r.linesRead, r.linesRead == 1 ? "" : "s");
}

// The row to highlight: the initiating rank, or the one rank missing from the timeout lines.
std::optional<int> highlightedRank(const RootChoice& root, const WatchdogAnalysis& w) {
  if (!root.root && !root.desync && w.missing.size() == 1 && !w.timeoutRanks.empty()) return w.missing[0];
  return root.initiatingRank;
}

void markDesyncSuspect(LogReport& r, const RootChoice& root, const WatchdogAnalysis& w) {
  if (!root.desync) return;
  for (auto& row : r.timeline)
    for (auto& e : row.events)
      if (row.rank == w.skewSuspect && e.kind == TimelineEventKind::Timeout) e.initiating = true;
}

}  // namespace

// The DeepSpeed launcher kills its workers when one of them exits; with the exit line (its
// "exits with return code") cut from the log and no failure found, the kills are all the log
// shows of that exit.
void recordLauncherKillsWithoutExit(State& s) {
  if (!s.firstLauncherKill) return;
  for (const ExitObservation& e : s.exits)
    if (e.source == ExitSource::Launcher) return;
  for (const Accumulator& a : s.accumulators)
    if (a.failure != FailureId::IncompleteTraceback) return;
  Occurrence occ;
  occ.evidence = *s.firstLauncherKill;
  occ.stream = s.firstLauncherKillStream;
  addDetail(record(s, FailureId::WorkerExit, occ),
            fmt::format("The DeepSpeed launcher killed {} subprocess{}, which it does when one of its workers has "
                        "exited; the line with that worker's exit code is not in this log.",
                        s.launcherKills, s.launcherKills == 1 ? "" : "es"));
}

LogReport diagnose(State& s) {
  recordLauncherKillsWithoutExit(s);
  LogReport r = reportFacts(s);
  demoteNanNormsOnSkippedSteps(s);
  const WatchdogAnalysis w = analyzeWatchdog(s, r.ranksSeen);
  const RunConfig run = runConfig(s, r);
  const RootChoice root = chooseRoot(s, w);

  for (const Accumulator& a : s.accumulators) r.findings.push_back(findingFor(s, a, root, w, run));
  if (root.desync) r.findings.push_back(desyncFinding(s, root, w));
  if (!s.torchrunEntries.empty()) r.findings.push_back(torchrunSummaryFinding(s));
  sortFindings(r.findings);

  r.verdict = verdictFor(s, r, root, w);
  buildTimeline(s, r, root.root, highlightedRank(root, w));
  r.files = s.files;
  markDesyncSuspect(r, root, w);
  return r;
}

}  // namespace dsls::logs::detail

// Choosing the initiating failure and its rank: the earliest failure of a process on its own,
// else an NCCL error, else skewed collectives (a desync), else numerics when nothing crashed
// or hung. The rank comes from the failure line, or from the one rank missing from the
// timeout lines; otherwise it stays unknown, with the reason.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/logs/diagnosis/diagnosis_steps.h"

namespace dsls::logs::detail {
namespace {

std::string rankSourceNote(RankSource source) {
  switch (source) {
    case RankSource::LocalPrefix:
      return " (torchrun's prefix gives the local rank, which equals the global rank only on a single node)";
    case RankSource::ProcessTag:
      return " (a per-process tag learned from this log: lines carry it with a small number that varies, which is "
             "the launcher's number for the process; srun --label and MPI launchers number processes by global "
             "rank, other wrappers may not)";
    case RankSource::None:
    case RankSource::Global:
      break;
  }
  return "";
}

std::string fileRankNote(RankSource source) {
  return source == RankSource::LocalPrefix
             ? " (its folder names the local rank, which equals the global rank only on a single node)"
             : "";
}

std::string hostRankText(const State& s, const std::string& host) {
  auto it = s.facts.hostRanks.find(host);
  if (it == s.facts.hostRanks.end() || it->second.empty()) return {};
  std::vector<int> ranks = it->second;
  std::sort(ranks.begin(), ranks.end());
  return fmt::format(" Host {} runs ranks {}.", host, joinRanks(ranks));
}

// Rank evidence that is not a line prefix: how it names its rank, and how sure that is (a
// launcher's report of the process that ended first, the error's own text).
struct LauncherReportWording {
  std::string_view family, reportOf, note;
};

constexpr LauncherReportWording kLauncherReports[] = {
    {kSpawnProcessFamily, "is torch.multiprocessing's report of process",
     " (spawn numbers the processes of its node: the index equals the global rank only on a single node)"},
    {kMpiLauncherFamily, "is the MPI launcher's report of rank", " (an MPI rank is the job's global rank)"},
    {kHorovodFamily, "is Horovod's report of process", " (Horovod numbers its processes by global rank)"},
    {kErrorTextFamily, "names, in its own text, rank", " (not a line prefix: the rank the report itself gives)"},
    {kSlurmTaskFamily, "is srun's report of task",
     " (srun's task number is the global rank when srun starts the training processes itself, as this log "
     "suggests: it shows no launcher of its own per node)"},
};

const LauncherReportWording* launcherReportWording(std::string_view family) {
  for (const LauncherReportWording& w : kLauncherReports)
    if (w.family == family) return &w;
  return nullptr;
}

// A worker exit whose first rank a launcher's report of the process that ended first gives.
const Accumulator* launcherReportedExit(const State& s) {
  const Accumulator* a = findAccumulator(s, FailureId::WorkerExit);
  return a && a->firstRank && launcherReportWording(a->firstRankFamily) ? a : nullptr;
}

// Ranks other than the first that reported the failure.
std::vector<int> otherRanksOf(const Accumulator& root) {
  std::vector<int> out;
  for (int r : root.ranks.ranks)
    if (!root.firstRank || r != *root.firstRank) out.push_back(r);
  return out;
}

// The failure line carries a rank.
RootRank rankFromFirstLine(const State& s, const Accumulator& root, const WatchdogAnalysis& w) {
  RootRank out;
  const std::vector<int> otherRanks = otherRanksOf(root);
  const bool onlySilent = w.missing.size() == 1 && w.missing[0] == *root.firstRank && !w.timeoutRanks.empty();
  if (root.firstRankSource == RankSource::LocalPrefix && multiNode(s)) {
    if (auto r = torchrunRootCauseRank(s)) return *r;
    out.ranks = root.ranks.ranks;
    out.reason = fmt::format("The first {} line ({}) carries local rank {}{}, but the log shows more than one "
                             "host, and a local rank is not a global rank.",
                             root.id, firstLineRef(s, root), *root.firstRank, rankEvidenceNote(root));
    return out;
  }
  if (unorderedAcrossRanks(root) && !onlySilent) {
    out.ranks = root.ranks.ranks;
    out.reason = fmt::format("Ranks {} report the same failure and their lines carry no timestamps that order them, "
                             "so the log does not say which rank failed first.",
                             joinRanks(root.ranks.ranks));
    return out;
  }
  out.rank = root.firstRank;
  out.scope = RankScope::One;
  const bool fromFile = root.firstRankFamily == kFileNameFamily;
  const bool fromSummary = root.firstRankFamily == kTorchrunSummaryFamily;
  const bool fromTag = root.firstRankSource == RankSource::ProcessTag;
  const LauncherReportWording* launcher = launcherReportWording(root.firstRankFamily);
  const bool fromSpawn = root.firstRankFamily == kSpawnProcessFamily;
  out.reason = fmt::format("The first {} line ({}) {} {}{}{}.", root.id, firstLineRef(s, root),
                           fromFile      ? "is in the file of rank"
                           : fromSummary ? "is torchrun's failure-summary entry for rank"
                           : launcher    ? launcher->reportOf
                           : fromTag     ? "carries the process tag of process"
                                         : "carries the prefix of rank",
                           *root.firstRank, fromFile || fromSummary || launcher ? "" : rankEvidenceNote(root),
                           fromFile   ? fileRankNote(root.firstRankSource)
                           : launcher ? std::string(launcher->note)
                                      : rankSourceNote(root.firstRankSource));
  if (root.failure == FailureId::HostOom && root.firstRankSource == RankSource::LocalPrefix && !fromSpawn)
    out.reason = fmt::format("torchrun reports local rank {} exiting with -9 ({}); it is the first exit torchrun "
                             "observed, on a single node.",
                             *root.firstRank, firstLineRef(s, root));
  if (!otherRanks.empty())
    out.reason += fmt::format(" Rank{} {} reported the same failure later{}.", otherRanks.size() > 1 ? "s" : "",
                              joinRanks(otherRanks), unorderedAcrossRanks(root) ? "" : " (by the timestamps)");
  if (!w.timeoutRanks.empty()) {
    if (onlySilent) out.reason += " It is also the only rank missing from the timeout lines.";
    else if (std::binary_search(w.timeoutRanks.begin(), w.timeoutRanks.end(), *root.firstRank))
      out.reason += " Note: this rank also reported a collective timeout.";
  }
  return out;
}

// The failure line carries no rank: other evidence, or unknown.
RootRank rankWithoutPrefix(const State& s, const Accumulator& root, const WatchdogAnalysis& w) {
  RootRank out;
  if (root.failure == FailureId::CollectiveMismatch || root.failure == FailureId::CollectiveSequenceMismatch) {
    out.ranks = root.ranks.ranks;
    out.reason = fmt::format("The message names ranks {}, which issued different collectives; either may be on the "
                             "wrong code path (the line's own prefix is only the rank that reported it).",
                             joinRanks(root.ranks.ranks));
    return out;
  }
  if (root.failure == FailureId::LauncherSighup || root.failure == FailureId::LauncherSignal) {
    out.reason = "The signal reached the launcher (torchrun's agent), which passed it on to every worker; no rank "
                 "started it.";
    return out;
  }
  if (auto r = torchrunRootCauseRank(s)) return *r;
  // An exception is exit code 1: the first worker the agent saw exit with 1 raised it.
  if (const ExitObservation* e = firstAgentExit(s); e && e->code == 1 && root.failure == FailureId::PythonException &&
                                                    !multiNode(s)) {
    out = agentExitRank(s, *e);
    out.reason = "The exception line has no rank prefix. " + out.reason;
    return out;
  }
  if (auto r = singleProcessRank(s)) return *r;
  if (s.spawnRaisedIndex && !multiNode(s)) {
    out.rank = *s.spawnRaisedIndex;
    out.scope = RankScope::One;
    out.reason = fmt::format("The failure line has no rank prefix; torch.multiprocessing reports that process {} "
                             "raised the exception it re-raises (spawn numbers the processes of its node: the index "
                             "equals the global rank on a single node, which is what this log shows).",
                             *s.spawnRaisedIndex);
    return out;
  }
  if (w.missing.size() == 1 && !w.timeoutRanks.empty()) {
    out.rank = w.missing[0];
    out.scope = RankScope::One;
    out.reason = fmt::format("The failure line has no rank prefix. Rank {} is the only rank in 0–{} that did not "
                             "report a collective timeout, so it is the rank that stopped participating.",
                             w.missing[0], w.maxRank);
    return out;
  }
  out.reason = "The failure line carries no rank prefix, so the log does not say which rank failed.";
  if (root.failure == FailureId::PythonException && root.total > 1 && root.unranked == root.total)
    out.reason += fmt::format(" It is shown {} times (by several processes, or by one that retried), with nothing to "
                              "tell them apart or order them.",
                              root.total);
  if (root.failure == FailureId::HostOom)
    out.reason += " The launcher prints the exit code of the failed worker, but the command it prints is the last "
                  "one it built (the highest local rank), so that command does not identify the worker.";
  if (!root.firstHost.empty()) out.reason += fmt::format(" It came from host {}.", root.firstHost);
  out.reason += hostRankText(s, root.firstHost);
  if (!w.missing.empty() && !w.timeoutRanks.empty())
    out.reason += fmt::format(" Ranks without a timeout line: {}.", joinRanks(w.missing));
  return out;
}

RootRank chooseRootRank(const State& s, const Accumulator& root, const WatchdogAnalysis& w) {
  const FailureInfo& info = failureInfo(root.failure);
  RootRank out;
  // DeepSpeed all-reduces the overflow check, so every rank lowers the scale alike and raises
  // "Current loss scale already at minimum" at the same step (the Primary occurrence).
  if (root.failure == FailureId::Fp16LossScaleFloor && root.tier == Tier::Primary) {
    out.scope = RankScope::All;
    out.ranks = root.ranks.ranks;
    out.reason = "DeepSpeed combines the overflow check of every rank (an all-reduce), so every rank lowers its loss "
                 "scale alike and stops the run with this exception at the same step; no single rank started it.";
    return out;
  }
  if ((root.tier == Tier::Numeric || root.failure == FailureId::Fp16LossScaleFloor) &&
      root.firstRankFamily != kErrorTextFamily) {
    out.reason = "These values are printed by rank 0 only (HF Trainer metrics, DeepSpeed's OVERFLOW and progress "
                 "lines), after gradients are combined across ranks; the log does not show which rank produced the "
                 "non-finite values.";
    return out;
  }
  // A failure that is every rank's by its kind, unless its text names the one rank that found it
  // (Megatron's NaN in one rank's own gradient norm).
  if (info.rankIndependent && root.firstRankFamily != kErrorTextFamily) {
    out.scope = RankScope::All;
    out.ranks = root.ranks.ranks;
    out.reason = "This error is deterministic (the configuration, the launch set-up or the checkpoint's layout) and "
                 "is raised the same way on every rank; no single rank started it.";
    if (!root.ranks.empty()) out.reason += fmt::format(" Ranks reporting it: {}.", joinRanks(root.ranks.ranks));
    return out;
  }
  if (auto every = sameExceptionOnEveryRank(s, root, w)) return *every;
  if (auto checks = raisedByArgumentChecks(s, root, w)) return *checks;
  if (auto sizes = assertionOnJobSizes(s, root)) return *sizes;
  out = root.firstRank ? rankFromFirstLine(s, root, w) : rankWithoutPrefix(s, root, w);
  if (!w.timeoutRanks.empty() && root.firstLine > w.firstLine)
    out.reason += fmt::format(" Caution: it appears after the first collective timeout ({}), so it may itself be "
                              "a consequence.",
                              w.firstWhere);
  return out;
}

}  // namespace

std::string timingNote(const Accumulator& root, const WatchdogAnalysis& w) {
  if (!root.firstTime || !w.firstTime || w.timeoutMs <= 0) return {};
  const double gap = *w.firstTime - *root.firstTime;
  if (gap <= 0) return {};
  const double timeout = static_cast<double>(w.timeoutMs) / 1000.0;
  std::string note = fmt::format("The first timeout was logged about {} after the last timestamp before the "
                                 "initiating failure; the process-group timeout is {}",
                                 formatDuration(gap), formatDuration(timeout));
  note += std::abs(gap - timeout) <= std::max(0.2 * timeout, 120.0)
              ? ", consistent with the other ranks waiting for the failed one."
              : ".";
  return note;
}

namespace {

bool isRootCandidate(const Accumulator& a, Tier tier) { return a.tier == tier && a.total > 0; }

const Accumulator* earliest(const State& s, Tier tier, std::optional<analysis::Severity> severity = std::nullopt) {
  const Accumulator* best = nullptr;
  for (const auto& a : s.accumulators) {
    if (!isRootCandidate(a, tier)) continue;
    if (severity && a.severity != *severity) continue;
    if (!best || a.firstLine < best->firstLine) best = &a;
  }
  return best;
}

// Ranks hit by the failure: timeouts, aborts, SIGABRT/SIGTERM exits, peer-gone errors.
std::vector<int> collateralOf(const State& s, const WatchdogAnalysis& w, std::optional<int> initiatingRank) {
  RankSet collateral;
  for (int rank : w.timeoutRanks) collateral.add(rank);
  for (int rank : s.collateralRanks.ranks) collateral.add(rank);
  std::vector<int> out;
  for (int rank : collateral.ranks)
    if (!initiatingRank || rank != *initiatingRank) out.push_back(rank);
  return out;
}

}  // namespace

RootChoice chooseRoot(const State& s, const WatchdogAnalysis& w) {
  RootChoice c;
  // 1. Earliest failure of a process on its own; 2. NCCL errors; 3. skewed collectives;
  c.root = earliest(s, Tier::Primary);
  if (!c.root) c.root = earliest(s, Tier::Communication);
  c.desync = !c.root && w.skew;
  const bool hung = !w.timeoutRanks.empty() || s.unrankedTimeouts > 0 || findAccumulator(s, FailureId::NcclWatchdogTimeout);
  // 4. a worker exit torchrun's agent saw first, when the log has no error of its own.
  const ExitObservation* agentExit = !c.root && !c.desync && !hung ? firstAgentExit(s) : nullptr;
  // 4b. or torchrun's root cause (exit code 1, no other failures), when it exited before the timeouts.
  const bool summaryExit = !c.root && !c.desync && !agentExit && !summaryOwnExitRanks(s).empty() &&
                           (!hung || rootCauseBeforeTimeouts(s, w));
  if (agentExit || summaryExit) {
    c.root = findAccumulator(s, FailureId::WorkerExit);
    if (c.root) {
      c.rank = agentExit ? agentExitRank(s, *agentExit) : summaryExitRank(s);
      if (hung) c.rank.reason += " It exited before the first collective timeout, which waited for it.";
      c.rank.reason += " Its own error is not in this log.";
    }
  }
  // 4c. or the process a launcher (mpirun, Horovod, srun, spawn) reports ending first.
  if (!c.root && !c.desync && !hung && !agentExit && !summaryExit) c.root = launcherReportedExit(s);
  // 5. numerics when nothing crashed and nothing hung.
  if (!c.root && !c.desync && !hung) {
    c.root = earliest(s, Tier::Numeric, analysis::Severity::Error);
    if (!c.root) c.root = earliest(s, Tier::Numeric);
  }
  if (c.root && !agentExit && !summaryExit) c.rank = chooseRootRank(s, *c.root, w);
  c.initiatingRank = c.desync ? w.skewSuspect : c.rank.rank;
  c.collateralRanks = collateralOf(s, w, c.initiatingRank);
  return c;
}

}  // namespace dsls::logs::detail

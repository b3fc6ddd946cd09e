// Rank evidence that does not come from the failure line's own prefix: torchrun's failure
// summary, a single-process launch, how many hosts the log shows, and whether the first
// lines of a failure on several ranks can be ordered by their timestamps.
#include <set>

#include <fmt/format.h>

#include "analysis/logs/diagnosis/diagnosis_steps.h"

namespace dsls::logs::detail {

bool multiNode(const State& s) {
  if (s.facts.hostRanks.size() > 1) return true;
  std::set<std::string_view> hosts;
  for (const auto& st : s.streams)
    if (!st.host.empty() && st.host != "(other ranks)") hosts.insert(st.host);
  for (const auto& e : s.torchrunEntries)
    if (!e.host.empty()) hosts.insert(e.host);
  return hosts.size() > 1;
}

namespace {

// The summary's one root-cause entry when it is an uncaught exception (exit code 1) or a crash
// of the process itself (SIGSEGV, SIGBUS, SIGILL, SIGFPE) of a known rank and no other failure is
// listed. Signals -6, -9 and -15 are often sent by the watchdog or the agent after another rank
// failed: no rank from those.
const TorchrunEntry* exceptionRootCause(const State& s) {
  if (!s.torchrunNoOtherFailures) return nullptr;
  const TorchrunEntry* root = nullptr;
  for (const auto& e : s.torchrunEntries) {
    if (!e.rootCause) continue;
    if (root) return nullptr;  // more than one root-cause entry
    root = &e;
  }
  if (!root || !root->rank || !root->exitCode) return nullptr;
  if (*root->exitCode != 1 && crashSignalName(*root->exitCode).empty()) return nullptr;
  return root;
}

}  // namespace

std::optional<RootRank> torchrunRootCauseRank(const State& s) {
  const TorchrunEntry* root = exceptionRootCause(s);
  if (!root) return std::nullopt;
  RootRank out;
  out.rank = root->rank;
  out.scope = RankScope::One;
  const long long code = *root->exitCode;
  const std::string meaning = code == 1 ? std::string("an uncaught exception in that process")
                                        : fmt::format("{}, a crash of that process itself", crashSignalName(code));
  out.reason = fmt::format("torchrun's failure summary names rank {} as the root cause with exit code {} ({}) and "
                           "lists no other failures (rank evidence: torchrun root cause).",
                           *root->rank, code, meaning);
  return out;
}

bool rootCauseBeforeTimeouts(const State& s, const WatchdogAnalysis& w) {
  const TorchrunEntry* root = exceptionRootCause(s);
  return root && root->time && w.firstTime && *root->time < *w.firstTime;
}

std::optional<RootRank> singleProcessRank(const State& s) {
  RootRank out;
  out.rank = 0;
  out.scope = RankScope::One;
  if (s.facts.worldSize && *s.facts.worldSize == 1) {
    out.reason = "The launcher started a single process (world size 1), so the failure is on rank 0 (rank evidence: "
                 "world size).";
    return out;
  }
  // The DeepSpeed launcher kills every worker it started, one "Killing subprocess" line each.
  const bool oneHost = !multiNode(s) && s.facts.hostRanks.empty();
  if (s.launcherKills == 1 && oneHost && (!s.facts.worldSize || *s.facts.worldSize == 1)) {
    out.reason = "The DeepSpeed launcher killed a single subprocess, so it had started one worker on one node: the "
                 "failure is on rank 0 (rank evidence: launcher subprocesses).";
    return out;
  }
  return std::nullopt;
}

const ExitObservation* firstAgentExit(const State& s) {
  for (const auto& e : s.exits)
    if (e.source == ExitSource::Torchrun && e.localRank && *e.localRank >= 0) {
      if (e.code == 0 || e.code == -6 || e.code == -15) return nullptr;
      return &e;
    }
  return nullptr;
}

RootRank agentExitRank(const State& s, const ExitObservation& exit) {
  RootRank out;
  if (multiNode(s)) {
    if (auto r = torchrunRootCauseRank(s)) return *r;
    out.reason = fmt::format("torchrun's agent reports local rank {} as the first worker that failed (exit code {}, "
                             "line {}), but the log shows more than one host, and a local rank is not a global rank.",
                             *exit.localRank, exit.code, exit.line);
    return out;
  }
  out.rank = exit.localRank;
  out.scope = RankScope::One;
  out.reason = fmt::format("torchrun's agent reports local rank {} as the first worker that failed (exit code {}, "
                           "line {}); the log shows one node, where the local rank is the global rank (rank evidence: "
                           "torchrun agent exit).",
                           *exit.localRank, exit.code, exit.line);
  return out;
}

std::vector<int> summaryOwnExitRanks(const State& s) {
  RankSet ranks;
  for (const auto& e : s.torchrunEntries)
    if (e.exitCode && (*e.exitCode > 0 || !crashSignalName(*e.exitCode).empty()) && e.rank) ranks.add(*e.rank);
  return ranks.ranks;
}

RootRank summaryExitRank(const State& s) {
  if (auto r = torchrunRootCauseRank(s)) return *r;
  const std::vector<int> ranks = summaryOwnExitRanks(s);
  RootRank out;
  if (ranks.size() == 1) {
    out.rank = ranks[0];
    out.scope = RankScope::One;
    out.reason = fmt::format("torchrun's failure summary lists only rank {} with an exit code of its own; any other "
                             "worker it lists was stopped by a signal (rank evidence: torchrun summary).",
                             ranks[0]);
    return out;
  }
  out.ranks = ranks;
  out.reason = fmt::format("torchrun's failure summary lists ranks {} with exit codes of their own, and nothing in "
                           "the log orders them: several workers failed alike, no single rank started it.",
                           joinRanks(ranks));
  return out;
}

namespace {

// Exceptions whose cause is a resource or a peer rather than the code: the same one on every
// rank is no evidence that every rank would fail alike.
bool timingDependent(std::string_view type) {
  const std::size_t dot = type.rfind('.');
  const std::string_view name = dot == std::string_view::npos ? type : type.substr(dot + 1);
  return name == "MemoryError" || name == "OutOfMemoryError" || name == "TimeoutError" ||
         name.find("Connection") != std::string_view::npos || name == "BrokenPipeError" || name == "EOFError";
}

// Who raised it, when that is every process of the job: the ranks of its lines are exactly
// 0..W-1, or its lines carry no rank and there are W of them. `what` names the exception.
std::optional<std::string> everyRankText(const State& s, const Accumulator& a, const std::string& what) {
  if (!s.facts.worldSize || *s.facts.worldSize < 2) return std::nullopt;
  const int world = *s.facts.worldSize;
  const std::vector<int>& ranks = a.ranks.ranks;
  if (!ranks.empty() && a.unranked == 0 && static_cast<int>(ranks.size()) == world && ranks.front() == 0 &&
      ranks.back() == world - 1)
    return fmt::format("Ranks {}, every rank of the job (world size {}), raise {}.", joinRanks(ranks), world, what);
  if (ranks.empty() && a.total == static_cast<std::size_t>(world))
    return fmt::format("The log shows {} {} times without rank prefixes, once for each of the {} processes of the job "
                       "(world size {}).",
                       what, a.total, world, world);
  return std::nullopt;
}

}  // namespace

std::optional<RootRank> sameExceptionOnEveryRank(const State& s, const Accumulator& root, const WatchdogAnalysis& w) {
  if (root.failure != FailureId::PythonException || root.total < 2 || root.exceptionVaries) return std::nullopt;
  const std::string_view type = std::string_view(root.key).substr(root.key.find(':') + 1);
  if (timingDependent(type)) return std::nullopt;
  // Before any collective: no rank waited for another, and no training step had begun.
  if (!w.timeoutRanks.empty() || s.unrankedTimeouts > 0 || findAccumulator(s, FailureId::NcclError)) return std::nullopt;
  if (root.phase & (tb::kPhaseForward | tb::kPhaseBackward | tb::kPhaseOptimizer)) return std::nullopt;
  const std::string what = fmt::format("the same {} with the same message{}", type,
                                       root.frames.empty() ? "" : fmt::format(" at the same line ({})", root.frames.back()));
  const auto who = everyRankText(s, root, what);
  if (!who) return std::nullopt;
  RootRank out;
  out.scope = RankScope::All;
  out.ranks = root.ranks.ranks;
  out.reason = *who + " It was raised before any collective or training step, so the code fails the same way on "
                      "every rank; no single rank started it (rank evidence: world size).";
  return out;
}

std::optional<RootRank> raisedByArgumentChecks(const State& s, const Accumulator& root, const WatchdogAnalysis& w) {
  if (root.failure != FailureId::PythonException || !(root.phase & (tb::kPhaseArguments | tb::kPhaseCheckpointLoad)))
    return std::nullopt;
  const std::string_view type = std::string_view(root.key).substr(root.key.find(':') + 1);
  if (timingDependent(type)) return std::nullopt;
  if (!w.timeoutRanks.empty() || s.unrankedTimeouts > 0 || findAccumulator(s, FailureId::NcclError)) return std::nullopt;
  RootRank out;
  out.scope = RankScope::All;
  out.ranks = root.ranks.ranks;
  out.reason = fmt::format("The {} was raised in {}{}, before any collective: every rank reads the same arguments, "
                           "configuration and checkpoint files and fails the same way; no single rank started it.",
                           type, tb::phaseName(root.phase),
                           root.frames.empty() ? "" : fmt::format(" ({})", root.frames.back()));
  return out;
}

bool unorderedAcrossRanks(const Accumulator& root) {
  if (!root.otherRankSeen) return false;
  return !(root.firstLineTime && root.otherRankLineTime && *root.firstLineTime < *root.otherRankLineTime);
}

std::string rankEvidenceNote(const Accumulator& root) {
  return root.firstRankFamily.empty() ? std::string() : fmt::format(" (rank evidence: {})", root.firstRankFamily);
}

}  // namespace dsls::logs::detail

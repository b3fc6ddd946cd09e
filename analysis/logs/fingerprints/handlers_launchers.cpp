// Launchers' reports of the processes that ended: OpenMPI's mpirun, MPICH's banner, Horovod,
// torch.multiprocessing.spawn and Slurm's srun. The exit status or signal names the failure
// (SIGKILL most often the kernel's OOM killer, SIGSEGV a crash in native code), and a launcher
// reports in the order the processes ended: its first report names the rank that initiated,
// the later ones the ranks that followed.
#include <fmt/format.h>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/fingerprints/signal_names.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

// The most task numbers of one srun line taken as ranks ("tasks 0-1023: Terminated").
constexpr std::size_t kMaxTasks = 64;
// "Exit code:" follows "Process name:" on the next line (a blank line at most between).
constexpr std::size_t kFirstProcessWindow = 2;

// A process's end as a launcher reports it: an exit code, or a signal as its negative.
constexpr long long kOutOfMemoryStatus = 1LL << 40;

struct ProcessEnd {
  FailureId failure = FailureId::WorkerExit;
  std::optional<int> rank;
  RankSource source = RankSource::None;
  std::string_view family;
  long long status = 0;
};

// Whether a report of `family` is a later one with another status than the first (the ranks
// that ended after the first, because of it); the first report with a rank is remembered.
bool endedOtherwiseThanFirst(State& s, const ProcessEnd& end) {
  for (const auto& [family, status] : s.firstProcessEnds)
    if (family == end.family) return status != end.status;
  if (end.rank) s.firstProcessEnds.emplace_back(end.family, end.status);
  return false;
}

struct RecordedEnd {
  Accumulator* finding = nullptr;
  bool consequence = false;  // a later report with another status than the launcher's first
};

// Records one report. The first report of a launcher with a rank initiates; a later one for
// another rank with the same status is the same failure on that rank (nothing orders them),
// with another status a rank that ended because of the first.
RecordedEnd recordProcessEnd(const Hit& hit, const ProcessEnd& end, std::string detail) {
  Occurrence occ = occurrenceOf(hit.c, false);
  const bool consequence = endedOtherwiseThanFirst(hit.s, end);
  if (end.rank && consequence) {
    hit.s.collateralRanks.add(*end.rank);
  } else if (end.rank) {
    occ.rank = end.rank;
    occ.rankSource = end.source;
    occ.rankFamily = end.family;
  }
  Accumulator* a = record(hit.s, end.failure, occ);
  // A launcher's line names the process that ended first even when the process's own report
  // of the failure came earlier without a rank.
  if (a && !a->firstRank && end.rank && !consequence) giveFirstRank(*a, *end.rank, end.source, end.family);
  if (a && a->total == 1) addDetail(a, std::move(detail));
  return {a, consequence};
}

// "exit code 137 (128 + 9: SIGKILL, ...)" or "exit code 1".
std::string exitStatusText(long long code) {
  const long long sig = signalOfExitStatus(code);
  if (!sig) return fmt::format("exit code {}", code);
  return fmt::format("exit code {} ({}{}{})", code, code < 0 ? "signal " : "128 + ", sig,
                     signalNameInParentheses(sig));
}

// srun started a launcher per node (torchrun, DeepSpeed's launcher), so its tasks are nodes.
bool perNodeLauncherSeen(const State& s) {
  if (!s.torchrunEntries.empty() || s.launcherKills > 0 || !s.pidToLocalRank.empty()) return true;
  for (const ExitObservation& e : s.exits)
    if (e.source != ExitSource::Signal) return true;
  return false;
}

}  // namespace

// "mpirun noticed that process rank 1 with PID 42 on node n1 exited on signal 9 (Killed)."
bool onMpiProcessSignal(const Hit& hit) {
  const long long sig = toInt(hit.group("signal"), 0);
  const int rank = static_cast<int>(toInt(hit.group("rank"), -1));
  ProcessEnd end{signalFailure(sig), std::nullopt, RankSource::Global, kMpiLauncherFamily, -sig};
  if (rank >= 0) end.rank = rank;
  recordProcessEnd(hit, end,
                   fmt::format("The MPI launcher reports that rank {} on node {} was the first to end, on signal {}{}.",
                               rank, text::sanitize(hit.group("node"), 80), sig, signalNameInParentheses(sig)));
  return true;
}

// "ProcessExitedException: process 3 terminated with signal SIGKILL" (torch.multiprocessing.spawn).
// Spawn numbers the processes it starts on its node, so the index is a local rank.
bool onSpawnProcessExit(const Hit& hit) {
  const int index = static_cast<int>(toInt(hit.group("index"), -1));
  const std::string_view signal = hit.group("signal");
  const long long sig = signalNumber(signal);
  const long long code = toInt(hit.group("code"), 0);
  if (signal.empty() && code == 0) return true;
  ProcessEnd end{signal.empty() ? FailureId::WorkerExit : signalFailure(sig), std::nullopt, RankSource::LocalPrefix,
                 kSpawnProcessFamily, signal.empty() ? code : -sig};
  if (index >= 0) end.rank = index;
  recordProcessEnd(hit, end,
                   signal.empty() ? fmt::format("torch.multiprocessing reports that process {} exited with code {}.",
                                                index, code)
                   : sig ? fmt::format("torch.multiprocessing reports that process {} ended on signal {}{}.", index, sig,
                                       signalNameInParentheses(sig))
                         : fmt::format("torch.multiprocessing reports that process {} ended on {}.", index,
                                       text::sanitize(signal, 16)));
  return true;
}

// "Process 0 exit with status code 137." (horovodrun, for each process that ended non-zero).
bool onHorovodProcessExit(const Hit& hit) {
  const long long code = toInt(hit.group("code"), 0);
  if (code == 0) return true;
  const int rank = static_cast<int>(toInt(hit.group("rank"), -1));
  ProcessEnd end{failureOfExitStatus(code), std::nullopt, RankSource::Global, kHorovodFamily, code};
  if (rank >= 0) end.rank = rank;
  recordProcessEnd(hit, end, fmt::format("horovodrun reports that process {} ended with {}.", rank, exitStatusText(code)));
  return true;
}

// "Process name: [[29973,1],0]" (OpenMPI), "Process name: 0" or "worker-1[0]" (Horovod): kept
// for the "Exit code:" line that follows.
bool onFirstProcessName(const Hit& hit) {
  StreamState& st = hit.stream();
  StreamState::FirstProcessName pending;
  pending.at = st.lineCount;
  if (const long long r = toInt(hit.group("mpi_rank"), -1); r >= 0) {
    pending.rank = static_cast<int>(r);
    pending.family = kMpiLauncherFamily;
    pending.name = fmt::format("MPI rank {}", r);
  } else if (const long long h = toInt(hit.group("rank"), -1); h >= 0) {
    pending.rank = static_cast<int>(h);
    pending.family = kHorovodFamily;
    pending.name = fmt::format("process {}", h);
  } else {
    pending.name = fmt::format("slot {} of host {}", text::sanitize(hit.group("slot"), 8),
                               text::sanitize(hit.group("host"), 80));
  }
  st.firstProcessName = std::move(pending);
  return false;
}

bool onFirstProcessExitCode(const Hit& hit) {
  StreamState& st = hit.stream();
  if (!st.firstProcessName || st.lineCount > st.firstProcessName->at + kFirstProcessWindow) return false;
  const StreamState::FirstProcessName name = std::move(*st.firstProcessName);
  st.firstProcessName.reset();
  const long long code = toInt(hit.group("code"), 0);
  if (code == 0) return false;
  ProcessEnd end{failureOfExitStatus(code), name.rank, RankSource::Global, name.family, code};
  const std::string_view launcher = name.family == kMpiLauncherFamily ? "The MPI launcher" : "Horovod";
  recordProcessEnd(hit, end,
                   fmt::format("{} reports that the first process to end was {}, with {}.", launcher, name.name,
                               exitStatusText(code)));
  return true;
}

// MPICH's "=   EXIT CODE: 139". A code that is a signal's number may be the signal itself: the
// banner's exit string says so, and is waited for.
bool onMpichExitCode(const Hit& hit) {
  const long long code = toInt(hit.group("code"), 0);
  if (code == 0) return true;
  if (code <= 128 && !signalName(code).empty()) {
    hit.stream().mpichExitCode = std::pair{code, hit.stream().lineCount};
    return true;
  }
  recordProcessEnd(hit, {failureOfExitStatus(code), std::nullopt, RankSource::None, {}},
                   fmt::format("MPICH reports that one of the application's processes ended with {}; its banner "
                               "names a PID and a host, not a rank.",
                               exitStatusText(code)));
  return true;
}

// "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)".
bool onMpichExitString(const Hit& hit) {
  hit.stream().mpichExitCode.reset();
  const long long sig = toInt(hit.group("signal"), 0);
  recordProcessEnd(hit, {signalFailure(sig), std::nullopt, RankSource::None, {}},
                   fmt::format("MPICH reports that one of the application's processes ended on signal {}{}; its "
                               "banner names a PID and a host, not a rank.",
                               sig, signalNameInParentheses(sig)));
  return true;
}

// "srun: error: node7: task 3: Exited with exit code 1", "...: tasks 8-13,15: Killed". When srun
// started a launcher per node, its tasks are those launchers and name no rank.
bool onSrunTaskEnded(const Hit& hit) {
  const std::string_view what = hit.group("what");
  const bool oom = what == "Out Of Memory";
  const long long code = toInt(hit.group("code"), 0);
  const long long sig = !hit.group("code").empty() ? signalOfExitStatus(code) : signalOfDescription(what);
  if (!oom && !sig && code == 0) return what.empty();  // exit code 0, or another srun error
  const std::vector<int> tasks =
      perNodeLauncherSeen(hit.s) ? std::vector<int>{} : text::parseIntList(hit.group("tasks"), kMaxTasks);
  if (sig == 15) {  // srun's own SIGTERM to the rest of the step
    for (int t : tasks) hit.s.collateralRanks.add(t);
    return true;
  }
  const FailureId failure = oom ? FailureId::HostOom : sig ? signalFailure(sig) : FailureId::WorkerExit;
  const std::string how = oom ? std::string("out of memory (Slurm's memory limit)")
                          : !hit.group("code").empty() ? exitStatusText(code)
                                                       : fmt::format("signal {}{}", sig, signalNameInParentheses(sig));
  std::string detail = fmt::format("srun reports that task{} {} on {} ended: {}.", tasks.size() == 1 ? "" : "s",
                                   text::sanitize(hit.group("tasks"), 60), text::sanitize(hit.group("host"), 80), how);
  if (tasks.empty()) detail += " srun started a launcher per node here, so a task is a node, not a rank.";
  ProcessEnd end{failure, std::nullopt, RankSource::Global, kSlurmTaskFamily,
                 oom ? kOutOfMemoryStatus : !hit.group("code").empty() ? code : -sig};
  if (!tasks.empty()) end.rank = tasks[0];
  const RecordedEnd recorded = recordProcessEnd(hit, end, std::move(detail));
  // The other tasks of one report ended as its first did: with it, and nothing orders them.
  for (std::size_t i = 1; i < tasks.size(); ++i) {
    if (recorded.consequence) {
      hit.s.collateralRanks.add(tasks[i]);
    } else if (recorded.finding) {
      recorded.finding->ranks.add(tasks[i]);
      recorded.finding->otherRankSeen = true;
    }
  }
  return true;
}

// "-- Process 3 terminated with the following error:" (ProcessRaisedException): the exception
// that follows is process 3's; the diagnosis gives it that rank when its lines carry none.
bool onSpawnProcessRaised(const Hit& hit) {
  if (const long long index = toInt(hit.group("index"), -1); index >= 0 && !hit.s.spawnRaisedIndex)
    hit.s.spawnRaisedIndex = static_cast<int>(index);
  return false;
}

}  // namespace dsls::logs::detail

// Processes ended by a signal, as the process itself or its MPI launcher reports it: the
// signal names the failure (SIGSEGV a crash in native code, SIGKILL most often the kernel's
// OOM killer), and an MPI launcher's line names the global rank that died first.
#include <fmt/format.h>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/fingerprints/signal_names.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {

bool onSegfault(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::Segfault);
  if (a && a->total == 1)
    addDetail(a, "The process's own signal handler reported the segmentation fault (SIGSEGV).");
  return true;
}

// "mpirun noticed that process rank 1 with PID 42 on node n1 exited on signal 9 (Killed)."
bool onMpiProcessSignal(const Hit& hit) {
  const long long sig = toInt(hit.group("signal"), 0);
  const int rank = static_cast<int>(toInt(hit.group("rank"), -1));
  Occurrence occ = occurrenceOf(hit.c, false);
  if (rank >= 0) {
    occ.rank = rank;
    occ.rankSource = RankSource::Global;
    occ.rankFamily = "the MPI launcher's rank";
  }
  const FailureId failure = signalFailure(sig);
  Accumulator* a = record(hit.s, failure, occ);
  // The launcher names the process that ended first: it initiates, even when the process's
  // own report of the signal came earlier without a rank.
  if (a && !a->firstRank && rank >= 0) {
    a->firstRank = rank;
    a->firstRankSource = RankSource::Global;
    a->firstRankFamily = std::string(occ.rankFamily);
  }
  if (a && a->total == 1)
    addDetail(a, fmt::format("The MPI launcher reports that rank {} on node {} was the first to end, on signal {}{}.",
                             rank, text::sanitize(hit.group("node"), 80), sig, signalNameInParentheses(sig)));
  return true;
}

// "ProcessExitedException: process 3 terminated with signal SIGKILL" (torch.multiprocessing.spawn).
// Spawn numbers the processes it starts on its node, so the index is a local rank.
bool onSpawnProcessExit(const Hit& hit) {
  const int index = static_cast<int>(toInt(hit.group("index"), -1));
  const long long sig = signalNumber(hit.group("signal"));
  const long long code = toInt(hit.group("code"), 0);
  if (hit.group("signal").empty() && code == 0) return true;
  Occurrence occ = occurrenceOf(hit.c, false);
  if (index >= 0) {
    occ.rank = index;
    occ.rankSource = RankSource::LocalPrefix;
    occ.rankFamily = kSpawnProcessFamily;
  }
  const FailureId failure = hit.group("signal").empty() ? FailureId::WorkerExit : signalFailure(sig);
  Accumulator* a = record(hit.s, failure, occ);
  // Spawn names the first process it saw end: it initiates, as an MPI launcher's line does.
  if (a && !a->firstRank && index >= 0) {
    a->firstRank = index;
    a->firstRankSource = RankSource::LocalPrefix;
    a->firstRankFamily = std::string(kSpawnProcessFamily);
  }
  if (a && a->total == 1)
    addDetail(a, hit.group("signal").empty()
                     ? fmt::format("torch.multiprocessing reports that process {} exited with code {}.", index, code)
                 : sig ? fmt::format("torch.multiprocessing reports that process {} ended on signal {}{}.", index,
                                     sig, signalNameInParentheses(sig))
                       : fmt::format("torch.multiprocessing reports that process {} ended on {}.", index,
                                     text::sanitize(hit.group("signal"), 16)));
  return true;
}

}  // namespace dsls::logs::detail

namespace dsls::logs::detail {

bool onMpiInitFailed(const Hit& hit) {
  recordHere(hit, FailureId::MpiInitFailed);
  return true;
}

}  // namespace dsls::logs::detail

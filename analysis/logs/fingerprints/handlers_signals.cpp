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

}  // namespace dsls::logs::detail

namespace dsls::logs::detail {

bool onMpiInitFailed(const Hit& hit) {
  recordHere(hit, FailureId::MpiInitFailed);
  return true;
}

}  // namespace dsls::logs::detail

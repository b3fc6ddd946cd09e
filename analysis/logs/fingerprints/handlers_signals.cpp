// Processes ended by a signal, as the process itself reports it (SIGSEGV a crash in native
// code); the launchers' reports are in handlers_launchers.cpp.
#include <fmt/format.h>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/fingerprints/signal_names.h"

namespace dsls::logs::detail {

bool onSegfault(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::Segfault);
  if (a && a->total == 1)
    addDetail(a, "The process's own signal handler reported the segmentation fault (SIGSEGV).");
  return true;
}

// "[host:pid] Signal: Aborted (6)", "Caught signal 11 (Segmentation fault: ...": the handler of
// the process that received the signal, so the line's own rank is the process's.
bool onSignalHandlerReport(const Hit& hit) {
  const long long sig = toInt(hit.group("signal").empty() ? hit.group("caught") : hit.group("signal"), 0);
  if (sig <= 0) return false;
  Accumulator* a = recordHere(hit, signalFailure(sig));
  if (a && a->total == 1)
    addDetail(a, fmt::format("The process's own signal handler reported signal {}{}.", sig, signalNameInParentheses(sig)));
  return true;
}

bool onMpiInitFailed(const Hit& hit) {
  recordHere(hit, FailureId::MpiInitFailed);
  return true;
}

}  // namespace dsls::logs::detail

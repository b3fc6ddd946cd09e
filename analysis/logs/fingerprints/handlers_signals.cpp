// Processes ended by a signal, as the process itself reports it (SIGSEGV a crash in native
// code); the launchers' reports are in handlers_launchers.cpp.
#include "analysis/logs/fingerprints/fingerprint_handlers.h"

namespace dsls::logs::detail {

bool onSegfault(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::Segfault);
  if (a && a->total == 1)
    addDetail(a, "The process's own signal handler reported the segmentation fault (SIGSEGV).");
  return true;
}

bool onMpiInitFailed(const Hit& hit) {
  recordHere(hit, FailureId::MpiInitFailed);
  return true;
}

}  // namespace dsls::logs::detail

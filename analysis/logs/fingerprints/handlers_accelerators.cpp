// Accelerators beside CUDA: Ascend NPUs report collective waits through HCCL and the CANN
// runtime's error codes; they are timeouts of a waiting rank, as NCCL's watchdog lines are.
#include "analysis/logs/fingerprints/fingerprint_handlers.h"

namespace dsls::logs::detail {

bool onHcclTimeout(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::HcclTimeout);
  if (a && a->total == 1 && hit.message().find("Remote Rank did not send") != std::string_view::npos)
    addDetail(a, "HCCL says the remote rank did not send its data in time: this rank waited for a peer.");
  return true;
}

bool onNpuStreamSyncTimeout(const Hit& hit) {
  recordHere(hit, FailureId::NpuStreamSyncTimeout);
  return true;
}

}  // namespace dsls::logs::detail

// Accelerators beside CUDA: Ascend NPUs (HCCL and the CANN runtime's error reports), Intel
// Gaudi HPUs and Intel GPUs. Their timeouts are a waiting rank's, as NCCL's watchdog lines are;
// their allocation and communicator failures are the failing rank's own, and the rank is often
// in the error text rather than in a line prefix.
#include <fmt/format.h>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

// An Ascend error report spans a few lines around its header.
constexpr std::size_t kDeviceReportLines = 12;

bool nearDeviceHeader(const State& s, std::size_t line) {
  return s.deviceErrorRank && line >= s.deviceErrorRank->second && line - s.deviceErrorRank->second <= kDeviceReportLines;
}

// Records a device error. With no rank prefix on the line, the rank the report names (in the
// line itself, or on the Ascend header of the same report) is the error's rank.
Accumulator* recordDeviceError(const Hit& hit, FailureId failure, std::optional<int> textRank = std::nullopt) {
  Occurrence occ = occurrenceOf(hit.c);
  if (!textRank && nearDeviceHeader(hit.s, hit.c.lineNo)) textRank = hit.s.deviceErrorRank->first;
  if (textRank) takeTextRank(occ, *textRank);
  return record(hit.s, failure, occ);
}

}  // namespace

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

// The header comes after the report's first line ("RuntimeError: ... HCCL error in: ..."): a
// device error recorded just before it, without a rank, takes the header's.
bool onAscendErrorHeader(const Hit& hit) {
  const long long rank = toInt(hit.group("rank"), -1);
  if (rank < 0) return false;
  hit.s.deviceErrorRank = std::pair{static_cast<int>(rank), hit.c.lineNo};
  for (FailureId id : {FailureId::HcclError, FailureId::NpuOom}) {
    Accumulator* a = findAccumulator(hit.s, id);
    if (a && !a->firstRank && a->ranks.empty() && hit.c.lineNo - a->firstLine <= kDeviceReportLines) {
      giveFirstRank(*a, static_cast<int>(rank), RankSource::Global, kErrorTextFamily);
      a->ranks.add(static_cast<int>(rank));
    }
  }
  return false;
}

bool onNpuOom(const Hit& hit) {
  recordDeviceError(hit, FailureId::NpuOom);
  return true;
}

bool onHcclError(const Hit& hit) {
  Accumulator* a = recordDeviceError(hit, FailureId::HcclError);
  if (a && !hit.group("call").empty())
    addDetail(a, fmt::format("The HCCL call that failed: {}.", text::sanitize(hit.group("call"), 80)));
  if (a && hit.message().find("HCCP process") != std::string_view::npos)
    addDetail(a, "EJ0001: the device's HCCP process could not start; a process of an earlier job may still hold "
                 "the NPU.");
  return true;
}

bool onHpuOom(const Hit& hit) {
  const long long rank = toInt(hit.group("rank"), -1);
  recordDeviceError(hit, FailureId::HpuOom, rank >= 0 ? std::optional<int>(static_cast<int>(rank)) : std::nullopt);
  return true;
}

bool onHpuGraphCompile(const Hit& hit) {
  Accumulator* a = recordDeviceError(hit, FailureId::HpuGraphCompileFailed);
  if (a && a->total == 1)
    addDetail(a, fmt::format("The compiler returned synStatus {}{}.", text::sanitize(hit.group("status"), 8),
                             hit.group("status") == "26" ? " (its generic failure: the cause is in the compiler's log)"
                                                         : ""));
  return true;
}

bool onXpuOom(const Hit& hit) {
  recordDeviceError(hit, FailureId::XpuOom);
  return true;
}

}  // namespace dsls::logs::detail

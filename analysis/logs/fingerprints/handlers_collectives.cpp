// Collectives: watchdog timeouts per rank, aborts, NCCL errors and versions.
#include <fmt/format.h>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

// The first timeout observation of the line's rank, created when the rank has none yet.
WatchdogObservation* watchdogOf(const Hit& hit, long long seq) {
  auto& watchdog = hit.s.watchdog;
  const int rank = *hit.c.prefix->rank;
  auto it = watchdog.find(rank);
  if (it != watchdog.end()) return &it->second;
  if (watchdog.size() >= limits::kRanksPerSet) return nullptr;
  WatchdogObservation w;
  w.seq = seq;
  w.line = hit.c.lineNo;
  w.where = lineRef(hit.s, makeEvidence(hit.c));
  w.time = hit.s.lastTime;
  return &watchdog.emplace(rank, w).first->second;
}

// A process taken down after a failed collective: collateral of some other failure.
bool recordAbort(const Hit& hit, Occurrence occ) {
  if (occ.rank) hit.s.collateralRanks.add(*occ.rank);
  record(hit.s, FailureId::NcclProcessAbort, occ);
  return true;
}

}  // namespace

bool onWatchdogTimeout(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::NcclWatchdogTimeout);
  if (!hit.c.prefix->rank) {
    ++hit.s.unrankedTimeouts;
  } else if (auto seen = hit.s.watchdog.find(*hit.c.prefix->rank); seen != hit.s.watchdog.end()) {
    if (seen->second.seq != toInt(hit.group("seq"))) hit.s.severalSeqRanks.add(*hit.c.prefix->rank);
  } else {
    if (WatchdogObservation* w = watchdogOf(hit, toInt(hit.group("seq")))) {
      w->opType = text::sanitize(hit.group("op"), 40);
      w->timeoutMs = toInt(hit.group("timeout_ms"));
      w->ranForMs = toInt(hit.group("ran_ms"));
    }
  }
  if (a && a->total == 1)
    addDetail(a, fmt::format("The first timeout line shows SeqNum={} OpType={}.", hit.group("seq"), hit.group("op")));
  return true;
}

bool onWatchdogWork(const Hit& hit) {
  recordHere(hit, FailureId::NcclWatchdogTimeout);
  if (!hit.c.prefix->rank) {
    ++hit.s.unrankedTimeouts;
    return true;
  }
  // Whichever of the three forms matched (the dump request names no work: the one after the last
  // completed is the one that timed out).
  const auto pick = [&](std::string_view a, std::string_view b, std::string_view c) {
    return !a.empty() ? a : !b.empty() ? b : c;
  };
  const long long enqueued = toInt(pick(hit.group("last_enqueued"), hit.group("enqueued"), hit.group("dump_enqueued")));
  const long long completed =
      toInt(pick(hit.group("last_completed"), hit.group("completed"), hit.group("dump_completed")));
  long long seq = toInt(!hit.group("seq").empty() ? hit.group("seq") : hit.group("seq_id"));
  if (seq < 0 && completed >= 0) seq = completed + 1;
  if (WatchdogObservation* w = watchdogOf(hit, seq)) {
    if (enqueued >= 0) w->lastEnqueued = enqueued;
    if (completed >= 0) w->lastCompleted = completed;
  }
  return true;
}

bool onWatchdogTerminated(const Hit& hit) {
  if (hit.lineAlsoHas(Fp::WatchdogTimeout) || hit.lineAlsoHas(Fp::CudaIllegalAccess) ||
      hit.lineAlsoHas(Fp::CudaDeviceAssert) || hit.lineAlsoHas(Fp::CudaLaunchFailure) || hit.lineAlsoHas(Fp::CudaOom))
    return true;
  return recordAbort(hit, occurrenceOf(hit.c));
}

bool onWatchdogBoilerplate(const Hit& hit) { return recordAbort(hit, occurrenceOf(hit.c)); }
bool onHeartbeatTimeout(const Hit& hit) { return recordAbort(hit, occurrenceOf(hit.c)); }

bool onCommAborted(const Hit& hit) {
  Occurrence occ = occurrenceOf(hit.c);
  if (!occ.rank) {
    const int rank = static_cast<int>(toInt(hit.group("rank"), -1));
    if (rank >= 0) {
      occ.rank = rank;
      occ.rankSource = RankSource::Global;
    }
  }
  return recordAbort(hit, occ);
}

bool onNcclCommInit(const Hit& hit) {
  const PrefixView& pv = *hit.c.prefix;
  if (!pv.pid || !pv.cudaDevice) return false;
  const int rank = static_cast<int>(toInt(hit.group("rank"), -1));
  const int nranks = static_cast<int>(toInt(hit.group("nranks"), -1));
  if (rank < 0 || nranks <= 0) return false;
  std::string key = std::string(pv.host) + "|" + std::to_string(*pv.pid);
  auto it = hit.s.ncclProcessRank.find(key);
  if (it != hit.s.ncclProcessRank.end()) {
    if (nranks > it->second.second) it->second = {rank, nranks};
  } else if (hit.s.ncclProcessRank.size() < limits::kPidMap) {
    hit.s.ncclProcessRank.emplace(std::move(key), std::make_pair(rank, nranks));
  }
  return false;
}

// An NCCL WARN line that reports an error: a communication error (a cause only when no
// process failed on its own), with the warning as its first detail.
// NCCL warnings printed while it probes its transports, after which it goes on with another
// (sockets instead of InfiniBand): no failure.
constexpr std::string_view kTransportProbeWarnings[] = {"Failed to open libibverbs"};

bool onNcclWarn(const Hit& hit) {
  if (hit.lineAlsoHas(Fp::NcclError) || hit.lineAlsoHas(Fp::CudaIllegalAccess) || hit.lineAlsoHas(Fp::CudaOom) ||
      hit.lineAlsoHas(Fp::CudaLaunchFailure) || hit.lineAlsoHas(Fp::NcclInvalidRank))
    return true;
  for (std::string_view probe : kTransportProbeWarnings)
    if (hit.group("warn").find(probe) != std::string_view::npos) return false;
  Accumulator* a = recordHere(hit, FailureId::NcclError);
  if (a && a->total == 1) addDetail(a, "First NCCL warning: " + text::sanitize(text::trim(hit.group("warn")), 240));
  return true;
}

bool onNcclError(const Hit& hit) {
  if (hit.lineAlsoHas(Fp::WatchdogTimeout) || hit.lineAlsoHas(Fp::WatchdogTerminated) ||
      hit.lineAlsoHas(Fp::CommAborted))
    return true;
  const std::string_view msg = hit.message();
  const bool remote = hit.group("nccl_error") == "Remote" || msg.find("remote process exited") != std::string_view::npos;
  Occurrence occ = occurrenceOf(hit.c);
  if (remote) {
    // A peer went away: the usual consequence of another rank's failure.
    if (occ.rank) hit.s.collateralRanks.add(*occ.rank);
    addTimelineEvent(hit.s, hit.c.stream, occ.evidence, TimelineEventKind::Abort, "nccl-remote-error",
                     "ncclRemoteError");
    return true;
  }
  Accumulator* a = record(hit.s, FailureId::NcclError, occ);
  if (a && a->total == 1) addDetail(a, "First error: " + text::sanitize(text::trim(msg), 240));
  return true;
}

// The rank that reports it is waiting on the root rank: it names no initiating rank.
bool onNcclUniqueIdStore(const Hit& hit) {
  const long long rank = toInt(hit.group("rank"), -1);
  const long long root = toInt(hit.group("root"), -1);
  if (rank >= 0 && rank < (1 << 24)) hit.s.collateralRanks.add(static_cast<int>(rank));
  Occurrence occ = occurrenceOf(hit.c);
  occ.rank.reset();
  occ.rankSource = RankSource::None;
  occ.rankFamily = {};
  Accumulator* a = record(hit.s, FailureId::NcclError, occ);
  if (!a || a->total != 1) return true;
  std::string_view error = text::trim(hit.group("error"));
  if (const std::size_t stop = error.find(". "); stop != std::string_view::npos) error = error.substr(0, stop);
  addDetail(a, fmt::format("Rank {} could not get the NCCL unique id from rank {}'s c10d store ({}): rank {} may have "
                           "failed before it, or the network between their nodes is broken; rank {} only reports it. "
                           "Look at rank {}'s own output first.",
                           rank, root, text::sanitize(error, 160), root, rank, root));
  return true;
}

bool onPortInUse(const Hit& hit) {
  recordHere(hit, FailureId::PortInUse);
  return true;
}

bool onNcclVersion(const Hit& hit) {
  rememberVersion(hit.s.facts.ncclVersion, hit.group("version"));
  return false;
}

}  // namespace dsls::logs::detail

namespace dsls::logs::detail {

// ProcessGroupWrapper: "Rank 1 is running collective: CollectiveFingerPrint(SequenceNumber=3104,
// OpType=ALLREDUCE, ...), but Rank 0 is running collective: ...". The line's own rank only
// reported it; the ranks in the message are the ones that disagree.
bool onCollectiveMismatch(const Hit& hit) {
  const std::string_view seq = hit.group("seq"), otherSeq = hit.group("other_seq"), aspects = hit.group("aspects");
  const bool sequence = (!seq.empty() && !otherSeq.empty() && seq != otherSeq) ||
                        aspects.find("Sequence number") != std::string_view::npos;
  Accumulator* a = recordHere(hit, sequence ? FailureId::CollectiveSequenceMismatch : FailureId::CollectiveMismatch,
                              false);
  if (!a) return true;
  const int rank = static_cast<int>(toInt(hit.group("rank"), -1));
  const int other = static_cast<int>(toInt(hit.group("other"), -1));
  if (rank >= 0) a->ranks.add(rank);
  if (other >= 0) a->ranks.add(other);
  if (a->total > 1) return true;
  std::string d = fmt::format("Rank {} runs {}{}", rank, hit.group("op"),
                              seq.empty() ? std::string() : fmt::format(" (sequence number {})", seq));
  if (other >= 0)
    d += fmt::format(", rank {} runs {}{}", other, hit.group("other_op"),
                     otherSeq.empty() ? std::string() : fmt::format(" (sequence number {})", otherSeq));
  d += ".";
  if (!aspects.empty()) d += " They differ in: " + text::sanitize(text::trim(aspects), 200) + ".";
  addDetail(a, d);
  return true;
}

// "NCCL WARN Invalid rank requested : 2/2": this process was given a rank outside the world.
bool onNcclInvalidRank(const Hit& hit) {
  const long long rank = toInt(hit.group("rank"), -1);
  Occurrence occ = occurrenceOf(hit.c);
  if (rank >= 0) takeTextRank(occ, static_cast<int>(rank));
  Accumulator* a = record(hit.s, FailureId::NcclError, occ);
  if (a && a->total == 1)
    addDetail(a, fmt::format("NCCL was asked for rank {} in a communicator of {} ranks: the launch gives this process "
                             "a rank outside the world (RANK, WORLD_SIZE or the number of processes per node "
                             "disagree between the nodes).",
                             rank, text::sanitize(hit.group("nranks"), 10)));
  return true;
}

// "Ranks 6 failed to pass monitoredBarrier": the named ranks are the ones that did not arrive.
bool onMonitoredBarrier(const Hit& hit) {
  constexpr std::size_t kMaxMissing = 64;
  const std::vector<int> missing = text::parseIntList(hit.group("ranks"), kMaxMissing);
  if (const auto& reporter = hit.c.prefix->rank) hit.s.collateralRanks.add(*reporter);
  Occurrence occ = occurrenceOf(hit.c, false);  // the line's own rank is the one that waited
  if (missing.size() == 1) takeTextRank(occ, missing[0]);
  Accumulator* a = record(hit.s, FailureId::MonitoredBarrierTimeout, occ);
  for (std::size_t i = 1; a && i < missing.size(); ++i) a->ranks.add(missing[i]);
  if (a && missing.size() > 1) a->otherRankSeen = true;
  if (a && a->total == 1)
    addDetail(a, fmt::format("The barrier names rank{} {} as not arriving.", missing.size() == 1 ? "" : "s",
                             joinRanks(missing)));
  return true;
}

bool onHorovodShutdown(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::HorovodShutdown);
  if (a && hit.c.prefix->rank) hit.s.collateralRanks.add(*hit.c.prefix->rank);
  return true;
}

}  // namespace dsls::logs::detail

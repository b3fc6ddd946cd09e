// Memory failures and process exits: OOMs, launcher and torchrun exit codes, signals,
// and the headers of torchrun's failure summary.
#include <fmt/format.h>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/fingerprints/signal_names.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

// Size of an allocation and the device in a CUDA OOM message.
std::string oomDetail(std::string_view msg) {
  std::string out;
  const std::size_t at = msg.find("Tried to allocate ");
  if (at != std::string_view::npos) {
    std::string_view rest = msg.substr(at + 18);
    std::size_t n = 0;
    while (n < rest.size() && (text::isDigit(rest[n]) || rest[n] == '.')) ++n;
    std::size_t unitEnd = n;
    if (unitEnd < rest.size() && rest[unitEnd] == ' ') ++unitEnd;
    while (unitEnd < rest.size() && text::isAlpha(rest[unitEnd])) ++unitEnd;
    if (n > 0) out = "It tried to allocate " + std::string(text::trimRight(rest.substr(0, unitEnd)));
  }
  const std::size_t gpu = msg.find("GPU ");
  if (gpu != std::string_view::npos && gpu + 4 < msg.size() && text::isDigit(msg[gpu + 4])) {
    std::size_t p = gpu + 4;
    const auto index = text::parseIntAt(msg, p);
    if (index)
      out += (out.empty() ? "It failed " : " ") + fmt::format("on GPU {} (a device index on its host, not a rank)", *index);
  }
  return out.empty() ? out : out + ".";
}

ExitObservation exitSeen(const Hit& hit, ExitSource source, long long code) {
  ExitObservation e;
  e.source = source;
  e.code = code;
  e.host = std::string(hit.c.prefix->host);
  e.line = hit.c.lineNo;
  return e;
}

}  // namespace

bool onCudaOom(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::CudaOom);
  if (a && a->total == 1) addDetail(a, oomDetail(hit.message()));
  return true;
}

bool onCpuAllocFail(const Hit& hit) {
  addDetail(recordHere(hit, FailureId::HostOom), "The CPU allocator could not allocate host memory.");
  return true;
}

bool onRayMemoryMonitor(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::HostOom);
  if (a && a->total == 1)
    addDetail(a, "Ray's memory monitor killed a worker because the node ran low on host memory (the threshold is "
                 "RAY_memory_usage_threshold).");
  return true;
}

bool onRayWorkerDied(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::RayActorDied);
  if (const std::string_view exitType = hit.group("exit_type"); a && a->total == 1 && !exitType.empty())
    addDetail(a, fmt::format("The raylet saw the worker process end under a running task (exit type {}).", exitType));
  return true;
}

bool onRayActorDied(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::RayActorDied);
  if (const std::string_view exitType = hit.group("exit_type"); a && !exitType.empty())
    addDetail(a, fmt::format("Ray gives the worker's exit type as {}{}.", exitType,
                             exitType == "SYSTEM_ERROR" ? " (it died without exiting on its own)" : ""));
  return true;
}

bool onScriptNotFound(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::ScriptNotFound);
  if (a && a->total == 1 && !hit.group("exec_path").empty())
    addDetail(a, fmt::format("The MPI launcher could not start '{}' ({}).", text::sanitize(hit.group("exec_path"), 200),
                             text::sanitize(hit.group("exec_reason"), 120)));
  else if (a && a->total == 1)
    addDetail(a, fmt::format("The interpreter could not open '{}' ([Errno {}] {}).", text::sanitize(hit.group("path"), 200),
                             text::sanitize(hit.group("errno"), 8), text::sanitize(text::trim(hit.group("reason")), 120)));
  return true;
}

bool onLauncherExit(const Hit& hit) {
  const long long code = toInt(hit.group("code"), 0);
  recordExit(hit.s, hit.c, exitSeen(hit, ExitSource::Launcher, code));
  if (const long long sig = signalOfExitStatus(code))
    addDetail(recordHere(hit, signalFailure(sig), false),
              fmt::format("The DeepSpeed launcher reports a worker ended by signal {}{}.", sig,
                          signalNameInParentheses(sig)));
  else if (code != 0)
    addDetail(recordHere(hit, FailureId::WorkerExit, false),
              fmt::format("The DeepSpeed launcher reports a worker exit code of {}.", code));
  return true;
}

// "RuntimeError: Step 1 exited with non-zero status 1": DeepSpeed-Chat's runner saw a step's
// training script fail; the script's own error is in that step's log.
bool onStepRunnerExit(const Hit& hit) {
  const long long code = toInt(hit.group("code"), 0);
  if (code == 0) return true;
  Accumulator* a = recordHere(hit, failureOfExitStatus(code), false);
  if (a && a->total == 1)
    addDetail(a, fmt::format("DeepSpeed-Chat's runner reports that step {} ended with exit code {}; the step's own "
                             "error is in its training log (output/.../training.log).",
                             text::sanitize(hit.group("step"), 2), code));
  return true;
}

bool onTorchrunFailed(const Hit& hit) {
  const long long code = toInt(hit.group("code"), 0);
  const int local = static_cast<int>(toInt(hit.group("local_rank"), -1));
  ExitObservation e = exitSeen(hit, ExitSource::Torchrun, code);
  e.localRank = local;
  recordExit(hit.s, hit.c, e);
  Occurrence occ = occurrenceOf(hit.c, false);
  if (local >= 0) {
    occ.rank = local;
    occ.rankSource = RankSource::LocalPrefix;
  }
  if (const long long sig = signalOfExitStatus(code))
    addDetail(record(hit.s, signalFailure(sig), occ),
              fmt::format("torchrun reports local rank {} ended by signal {}{}.", local, sig,
                          signalNameInParentheses(sig)));
  else if (code != 0)
    addDetail(record(hit.s, FailureId::WorkerExit, occ),
              fmt::format("torchrun reports local rank {} exited with code {}.", local, code));
  return true;
}

bool onSignalReceived(const Hit& hit) {
  if (hit.s.torchrunBlockActive) return true;  // part of the failure summary, handled there
  const long long sig = toInt(hit.group("signal"), 0);
  if (sig == 9 || sig == 11)
    addDetail(recordHere(hit, signalFailure(sig)), fmt::format("A worker received signal {}{}.", sig, signalNameInParentheses(sig)));
  else if (hit.c.prefix->rank && (sig == 6 || sig == 15))
    hit.s.collateralRanks.add(*hit.c.prefix->rank);
  return true;
}

bool onLauncherKilling(const Hit& hit) {
  const long long pid = toInt(hit.group("pid"), -1);
  ++hit.s.launcherKills;
  if (!hit.s.firstLauncherKill) {
    hit.s.firstLauncherKill = makeEvidence(hit.c);
    hit.s.firstLauncherKillStream = hit.c.stream;
  }
  std::string label = "launcher killed pid " + std::to_string(pid);
  if (auto it = hit.s.pidToLocalRank.find(pid); it != hit.s.pidToLocalRank.end())
    label += " (local rank " + std::to_string(it->second) + ")";
  addTimelineEvent(hit.s, hit.c.stream, makeEvidence(hit.c), TimelineEventKind::Exit, "launcher-kill",
                   std::move(label));
  return true;
}

bool onProcessSpawned(const Hit& hit) {
  if (hit.s.pidToLocalRank.size() < limits::kPidMap)
    hit.s.pidToLocalRank[toInt(hit.group("pid"), -1)] = static_cast<int>(toInt(hit.group("local_rank"), -1));
  return false;
}

namespace {

bool startTorchrunBlock(const Hit& hit, bool rootCause) {
  finishTorchrunEntry(hit.s);
  hit.s.torchrunBlockActive = true;
  hit.s.torchrunBlockRoot = rootCause;
  return true;
}

}  // namespace

bool onRootCauseHeader(const Hit& hit) { return startTorchrunBlock(hit, true); }
bool onFailuresHeader(const Hit& hit) { return startTorchrunBlock(hit, false); }
bool onChildFailed(const Hit&) { return true; }

}  // namespace dsls::logs::detail

namespace dsls::logs::detail {

// "CUDA error: an illegal memory access was encountered": the first report on a rank is the
// fault; the sticky context makes every later CUDA call on it fail the same way.
bool onCudaIllegalAccess(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::CudaIllegalMemoryAccess);
  if (a && a->total == 1 && hit.lineAlsoHas(Fp::WatchdogTerminated))
    addDetail(a, "The NCCL watchdog found the error when it checked the rank's collectives; the faulting "
                 "kernel ran earlier, on this rank.");
  return true;
}

// "CUDA error: unspecified launch failure": a kernel died on the device; sticky as well.
bool onCudaLaunchFailure(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::CudaLaunchFailure);
  if (a && a->total == 1 && hit.lineAlsoHas(Fp::WatchdogTerminated))
    addDetail(a, "The NCCL watchdog found the error when it checked the rank's collectives; the kernel that "
                 "failed ran earlier, on this rank.");
  return true;
}

// A device-side assertion: the kernel's line names the assertion that failed; the CUDA error
// after it is the same fault, sticky like an illegal memory access.
bool onCudaDeviceAssert(const Hit& hit) {
  Accumulator* a = recordHere(hit, FailureId::CudaDeviceAssert);
  if (a && a->details.empty() && !hit.group("assertion").empty())
    addDetail(a, fmt::format("The assertion that failed: `{}` in the kernel {}.",
                             text::sanitize(hit.group("assertion"), 200), text::sanitize(hit.group("kernel"), 120)));
  return true;
}

// torchrun's agent: "Received 1 death signal, shutting down workers", or the launcher's
// "SignalException: Process N got signal: 1".
bool onAgentSignal(const Hit& hit) {
  const long long sig = toInt(hit.m.firstOf({"signal", "got"}), 0);
  const FailureId failure = sig == 1 ? FailureId::LauncherSighup : FailureId::LauncherSignal;
  Accumulator* a = recordHere(hit, failure, false);
  if (a && a->total == 1)
    addDetail(a, fmt::format("The signal is {}{}.", sig,
                             sig == 1 ? " (SIGHUP)" : sig == 15 ? " (SIGTERM)" : sig == 2 ? " (SIGINT)" : ""));
  return true;
}

}  // namespace dsls::logs::detail

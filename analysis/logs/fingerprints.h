// The catalogue of log fingerprints (line shapes that identify a failure or a
// fact about the run), matched together: a literal prefilter, then one RE2::Set
// pass, then capture groups only for the patterns that matched.
#pragma once

#include <array>
#include <memory>
#include <string_view>
#include <vector>

#include "analysis/logs/literal_prefilter.h"

namespace re2 {
class RE2;
}

namespace dsls::logs {

enum class Fp : int {
  // memory and process exits
  CudaOom, CpuAllocFail, LauncherExit, TorchrunFailed, SignalReceived, LauncherKilling, ProcessSpawned,
  RootCauseHeader, FailuresHeader, ChildFailed,
  // collectives
  WatchdogTimeout, WatchdogWork, WatchdogTerminated, CommAborted, WatchdogBoilerplate, HeartbeatTimeout,
  NcclError, PortInUse, NcclVersion,
  // numerics
  Overflow, LossScaleMin,
  // ZeRO internals and checkpoints
  ZeroParamAssert, ZeroReducedTwice, Zero3PartitionedParam, CkptSizeMismatch, CkptDpMismatch, CkptNoLatest,
  // configuration
  PydanticHeader, PydanticExtraV1, PydanticExtraV2, PydanticOtherV2, PydanticOtherV1, BatchAssert, HfMismatch,
  Fp16Bf16Both, AutoNotFilled, MaxGradNormOpt, UntestedOptimizer, AmpZero, DuplicateKeys, ZeroSectionMissing,
  PartialOffload, PipelineZero, DeprecatedKey, UnsupportedOptimizer, OpBuild, DsOptAdamMissing,
  // facts about the run
  DsVersion, TorchVersion, ConfigDump, WorldSize, WorldInfo, PipelineOverlapOff,
  Count
};

constexpr int kMaxGroups = 8;

struct FpMatch {
  Fp kind = Fp::Count;
  std::array<std::string_view, kMaxGroups> groups{};  // empty view = group did not participate
  std::size_t groupCount = 0;
  // First non-empty group among [from, to), handy for alternations.
  std::string_view firstOf(std::size_t from, std::size_t to) const;
};

class FingerprintMatcher {
 public:
  FingerprintMatcher();
  ~FingerprintMatcher();
  FingerprintMatcher(const FingerprintMatcher&) = delete;
  FingerprintMatcher& operator=(const FingerprintMatcher&) = delete;

  // Appends every fingerprint found in `message` to `out` (cleared first).
  // Returns false quickly when the prefilter rejects the line.
  bool match(std::string_view message, std::vector<FpMatch>& out) const;

  // The process-wide instance (construction compiles the patterns once).
  static const FingerprintMatcher& shared();

  std::size_t patternCount() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dsls::logs

#include "analysis/logs/fingerprints.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>

#include <stdexcept>
#include <string>

namespace dsls::logs {
namespace {

struct Spec {
  Fp kind;
  std::vector<std::string> literals;  // at least one occurs in every match (exact case)
  const char* pattern;
};

// Digits vary in real logs; sizes, ranks and counters are captured, never fixed.
std::vector<Spec> specs() {
  return {
      {Fp::CudaOom, {"out of memory", "OutOfMemoryError"},
       R"((?:OutOfMemoryError|(?:CUDA|HIP) out of memory|CUDA error: out of memory))"},
      {Fp::CpuAllocFail, {"DefaultCPUAllocator"}, R"(DefaultCPUAllocator: (?:can't allocate memory|not enough memory))"},
      {Fp::LauncherExit, {"exits with return code"}, R"(exits with return code = (-?\d+))"},
      {Fp::TorchrunFailed, {"failed (exitcode"}, R"(failed \(exitcode: (-?\d+)\) local_rank: (\d+) \(pid: (\d+)\))"},
      {Fp::SignalReceived, {"received by PID"}, R"(Signal (\d+) \((SIG[A-Z0-9]+)\) received by PID (\d+))"},
      {Fp::LauncherKilling, {"Killing subprocess"}, R"(Killing subprocess (\d+))"},
      {Fp::ProcessSpawned, {"spawned with command"}, R"(process (\d+) spawned with command: .*--local_rank=(\d+))"},
      {Fp::RootCauseHeader, {"Root Cause"}, R"(Root Cause \(first observed failure\))"},
      {Fp::FailuresHeader, {"Failures:"}, R"(^\s*(?:Other )?Failures:\s*$)"},
      {Fp::ChildFailed, {"ChildFailedError"}, R"(ChildFailedError)"},

      {Fp::WatchdogTimeout, {"Watchdog caught"},
       R"(Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=(\d+), OpType=(\w+)(?:, NumelIn=(\d+), NumelOut=(\d+))?.*?Timeout\(ms\)=(\d+)\)(?: ran for (\d+))?)"},
      {Fp::WatchdogWork, {"detected by watchdog"},
       R"(detected by watchdog at work: (\d+), last enqueued NCCL work: (\d+), last completed NCCL work: (\d+))"},
      {Fp::WatchdogTerminated, {"watchdog thread terminated"},
       R"((?:NCCL|Process group) watchdog thread terminated with exception)"},
      {Fp::CommAborted, {"communicator was aborted"}, R"(NCCL communicator was aborted on rank (\d+))"},
      {Fp::WatchdogBoilerplate, {"Some NCCL operations", "To avoid data inconsistency"},
       R"(Some NCCL operations have failed or timed out|To avoid data inconsistency, we are taking the entire process down)"},
      {Fp::HeartbeatTimeout, {"Heartbeat monitor timed out", "watchdog got stuck"},
       R"(Heartbeat monitor timed out|watchdog got stuck for (\d+) seconds)"},
      {Fp::NcclError, {"NCCL error", "ncclSystemError", "ncclInternalError", "ncclUnhandledCudaError",
                       "ncclInvalidUsage", "ncclRemoteError", "ncclInvalidArgument"},
       R"(NCCL error|nccl(System|Internal|UnhandledCuda|InvalidUsage|Remote|InvalidArgument)Error)"},
      {Fp::PortInUse, {"Address already in use"}, R"(Address already in use)"},
      {Fp::NcclVersion, {"NCCL version"}, R"(NCCL version (\d+\.\d+\.\d+))"},

      {Fp::Overflow, {"OVERFLOW!", "Overflow detected"},
       R"((?:OVERFLOW!|Overflow detected\.)(?:.*?Attempted loss scale: ([0-9.eE+]+)(?:, reducing to ([0-9.eE+]+))?)?)"},
      {Fp::LossScaleMin, {"already at minimum"}, R"(Current loss scale already at minimum)"},

      {Fp::ZeroParamAssert, {"'status': '"}, R"(AssertionError: \{'id': (\d+), 'status': '(\w+)')"},
      {Fp::ZeroReducedTwice, {"already been reduced"}, R"(The parameter (\d+) has already been reduced)"},
      {Fp::Zero3PartitionedParam, {"must be 2-D"}, R"('weight' must be 2-D|tensors must be 2-D)"},
      {Fp::CkptSizeMismatch, {"size mismatch for"},
       R"(size mismatch for ([\w.]+): copying a param with shape torch\.Size\(\[([\d, ]*)\]\) from checkpoint, the shape in current model is torch\.Size\(\[([\d, ]*)\]\))"},
      {Fp::CkptDpMismatch, {"DP world size"}, R"(used a DP world size of (\d+) but the current world size is (\d+))"},
      {Fp::CkptNoLatest, {"Unable to find latest file"}, R"(Unable to find latest file at ([^,\s]+))"},

      {Fp::PydanticHeader, {"validation error"}, R"((\d+) validation errors? for (\w+))"},
      {Fp::PydanticExtraV1, {"extra fields not permitted"},
       R"(^\s*(?:(\w+)\s{2,})?extra fields not permitted \(type=value_error\.extra\))"},
      {Fp::PydanticExtraV2, {"Extra inputs are not permitted"},
       R"(^\s*(?:(\w+)\s{2,})?Extra inputs are not permitted \[type=extra_forbidden(?:, input_value=(.*?), input_type=(\w+))?)"},
      {Fp::PydanticOtherV2, {"[type="}, R"(^\s*(?:(\w+)\s{2,})?(.*?) \[type=(\w+), input_value=(.*?), input_type=(\w+)\])"},
      {Fp::PydanticOtherV1, {"(type="}, R"(^\s*(?:(\w+)\s{2,})?(.*?) \(type=((?:value|type)_error[\w.]*)\))"},
      {Fp::BatchAssert, {"train_batch_size is not equal", "has to be greater than 0", "needs to be provided"},
       R"(train_batch_size is not equal to micro_batch_per_gpu \* gradient_acc_step \* world_size (-?\d+) != (-?\d+) \* (-?\d+) \* (-?\d+)|(Train batch size|Micro batch size per gpu|Gradient accumulation steps): (-?\d+) has to be greater than 0|(Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided))"},
      {Fp::HfMismatch, {"mismatch TrainingArguments"},
       R"(Please correct the following DeepSpeed config values that mismatch TrainingArguments)"},
      {Fp::Fp16Bf16Both, {"cannot be simultaneously enabled", "arg cannot be set to"},
       R"(bfloat16 and fp16 modes cannot be simultaneously enabled|mixed_precision.? arg cannot be set to .?bf16.? when .?fp16.? is set in the DeepSpeed config)"},
      {Fp::AutoNotFilled, {"not supported between instances of"},
       R"('[<>]=?' not supported between instances of (?:'str' and '(?:float|int)'|'(?:float|int)' and 'str'))"},
      {Fp::MaxGradNormOpt, {"as an optimizer parameter"}, R"(max_grad_norm'?(?: \([^)]*\))? is not supported as an optimizer parameter)"},
      {Fp::UntestedOptimizer, {"untested ZeRO Optimizer"}, R"(You are using an untested ZeRO Optimizer)"},
      {Fp::AmpZero, {"Amp and ZeRO"}, R"(Amp and ZeRO are not currently compatible)"},
      {Fp::DuplicateKeys, {"Duplicate keys in DeepSpeed config"}, R"(Duplicate keys in DeepSpeed config: (.*))"},
      {Fp::ZeroSectionMissing, {"specify the ZeRO optimization config"},
       R"(Please specify the ZeRO optimization config in the DeepSpeed config)"},
      {Fp::PartialOffload, {"Partial offloading"}, R"(Partial offloading only supported for ZeRO Stage 3)"},
      {Fp::PipelineZero, {"incompatible with pipeline parallelism"},
       R"(ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism)"},
      {Fp::DeprecatedKey, {"is deprecated"},
       R"(Config parameter (\w+) is deprecated use (\w+) instead|DeepSpeedConfig: (\w+) is deprecated\. Please use (\w+))"},
      {Fp::UnsupportedOptimizer, {"is not a supported DeepSpeed Optimizer"}, R"((\S+) is not a supported DeepSpeed Optimizer)"},
      {Fp::OpBuild, {"Error building extension"}, R"(Error building extension '(\w+)')"},
      {Fp::DsOptAdamMissing, {"ds_opt_adam"}, R"(object has no attribute 'ds_opt_adam')"},

      {Fp::DsVersion, {"DeepSpeed info", "deepspeed info", "deepspeed==", "DeepSpeed version"},
       R"(DeepSpeed info: version=([0-9][\w.+-]*)|^\s*deepspeed info \.+ ([0-9][\w.+-]*)|^deepspeed==([0-9][\w.+-]*)|DeepSpeed version: ([0-9][\w.+-]*))"},
      {Fp::TorchVersion, {"torch version", "torch==", "PyTorch version"},
       R"(^\s*torch version \.+ ([0-9][\w.+-]*)|^torch==([0-9][\w.+-]*)|PyTorch version(?: \(GPU\?\))?: ([0-9][\w.+-]*))"},
      {Fp::ConfigDump, {"...."},
       R"(^\s*(zero_config|zero_optimization_stage|zero_enabled|bfloat16_enabled|bfloat16_config|fp16_enabled|float16_config|world_size|gradient_clipping|train_batch_size|gradient_accumulation_steps|communication_data_type) \.+ (.*)$)"},
      {Fp::WorldSize, {"dist_world_size="}, R"(dist_world_size=(\d+))"},
      {Fp::WorldInfo, {"WORLD INFO DICT", "global_rank_mapping"}, R"(WORLD INFO DICT: (.*)|global_rank_mapping=(.*))"},
      {Fp::PipelineOverlapOff, {"does not support overlapped communication"},
       R"(Pipeline parallelism does not support overlapped communication)"},
  };
}

RE2::Options patternOptions() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);  // logs are bytes; patterns are ASCII
  o.set_log_errors(false);
  o.set_max_mem(64 << 20);
  return o;
}

}  // namespace

std::string_view FpMatch::firstOf(std::size_t from, std::size_t to) const {
  for (std::size_t i = from; i < to && i < groupCount; ++i)
    if (groups[i].data() != nullptr) return groups[i];
  return {};
}

struct FingerprintMatcher::Impl {
  std::vector<Fp> kinds;
  std::vector<std::unique_ptr<RE2>> regexes;
  RE2::Set set{patternOptions(), RE2::UNANCHORED};
  std::unique_ptr<LiteralPrefilter> prefilter;

  Impl() {
    std::vector<std::string> literals;
    for (auto& spec : specs()) {
      auto re = std::make_unique<RE2>(spec.pattern, patternOptions());
      std::string error;
      if (!re->ok() || set.Add(spec.pattern, &error) < 0)
        throw std::logic_error("bad log fingerprint pattern: " + std::string(spec.pattern) + " " + error);
      if (re->NumberOfCapturingGroups() > kMaxGroups)
        throw std::logic_error("too many groups in log fingerprint pattern");
      kinds.push_back(spec.kind);
      regexes.push_back(std::move(re));
      for (auto& lit : spec.literals) literals.push_back(lit);
    }
    if (!set.Compile()) throw std::runtime_error("log fingerprint set failed to compile");
    prefilter = std::make_unique<LiteralPrefilter>(std::move(literals));
  }

  void capture(std::size_t index, std::string_view message, std::vector<FpMatch>& out) const {
    const RE2& re = *regexes[index];
    // RE2 counts groups in int; never negative, and at most kMaxGroups (checked when compiled).
    const auto n = static_cast<std::size_t>(re.NumberOfCapturingGroups());
    std::array<re2::StringPiece, kMaxGroups> pieces{};
    std::array<RE2::Arg, kMaxGroups> args;
    std::array<const RE2::Arg*, kMaxGroups> argPtrs{};
    for (std::size_t i = 0; i < n; ++i) {
      args[i] = RE2::Arg(&pieces[i]);
      argPtrs[i] = &args[i];
    }
    if (!RE2::PartialMatchN(re2::StringPiece(message.data(), message.size()), re, argPtrs.data(), static_cast<int>(n))) return;
    FpMatch m;
    m.kind = kinds[index];
    m.groupCount = n;
    for (std::size_t i = 0; i < n; ++i)
      m.groups[i] = pieces[i].data() ? std::string_view(pieces[i].data(), pieces[i].size()) : std::string_view{};
    out.push_back(m);
  }
};

FingerprintMatcher::FingerprintMatcher() : impl_(std::make_unique<Impl>()) {}
FingerprintMatcher::~FingerprintMatcher() = default;

const FingerprintMatcher& FingerprintMatcher::shared() {
  static const FingerprintMatcher instance;
  return instance;
}

std::size_t FingerprintMatcher::patternCount() const { return impl_->kinds.size(); }

bool FingerprintMatcher::match(std::string_view message, std::vector<FpMatch>& out) const {
  out.clear();
  if (!impl_->prefilter->anyIn(message)) return false;
  thread_local std::vector<int> hits;
  hits.clear();
  RE2::Set::ErrorInfo info{RE2::Set::kNoError};
  const re2::StringPiece piece(message.data(), message.size());
  if (!impl_->set.Match(piece, &hits, &info)) {
    if (info.kind == RE2::Set::kNoError) return false;
    // The DFA ran out of memory on a pathological line: try the patterns one by one.
    hits.clear();
    for (std::size_t i = 0; i < impl_->regexes.size(); ++i)
      if (RE2::PartialMatch(piece, *impl_->regexes[i])) hits.push_back(static_cast<int>(i));
  }
  std::sort(hits.begin(), hits.end());
  for (int index : hits) impl_->capture(static_cast<std::size_t>(index), message, out);
  return !out.empty();
}

}  // namespace dsls::logs

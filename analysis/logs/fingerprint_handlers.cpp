// What each matched fingerprint contributes: findings, exit codes, collective
// timeouts per rank, and facts about the run (versions, resolved config).
#include <algorithm>

#include <fmt/format.h>

#include "analysis/config/rule_id.h"
#include "analysis/logs/analyzer_ops.h"
#include "analysis/logs/text_util.h"

namespace dsls::logs::detail {
namespace {

bool has(const std::vector<FpMatch>& all, Fp kind) {
  return std::any_of(all.begin(), all.end(), [&](const FpMatch& m) { return m.kind == kind; });
}

long long toInt(std::string_view s, long long fallback = -1) {
  auto v = text::parseInt(s);
  return v ? *v : fallback;
}

std::optional<double> toDouble(std::string_view s) {
  if (s.empty() || s.size() > 40) return std::nullopt;
  std::string copy(s);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str()) return std::nullopt;
  return v;
}

// Section of the config a pydantic model validates.
std::string_view sectionOfModel(std::string_view model) {
  if (model == "DeepSpeedZeroConfig") return "zero_optimization";
  if (model == "DeepSpeedZeroOffloadParamConfig") return "zero_optimization.offload_param";
  if (model == "DeepSpeedZeroOffloadOptimizerConfig") return "zero_optimization.offload_optimizer";
  if (model == "DeepSpeedBF16Config") return "bf16";
  if (model == "DeepSpeedFP16Config") return "fp16";
  if (model == "TensorBoardConfig") return "tensorboard";
  if (model == "WandbConfig") return "wandb";
  if (model == "CSVConfig") return "csv_monitor";
  if (model == "CometConfig") return "comet";
  if (model == "HybridEngineConfig") return "hybrid_engine";
  if (model == "CompileConfig") return "compile";
  return {};
}

std::string qualifiedKey(const StreamState& st, std::string_view key) {
  const std::string_view section = sectionOfModel(st.pydanticModel);
  if (section.empty()) return std::string(key);
  return std::string(section) + "." + std::string(key);
}

// "stage=2 contiguous_gradients=True ... overlap_comm=False ..." -> value of `name`.
std::optional<std::string_view> reprField(std::string_view repr, std::string_view name) {
  std::size_t from = 0;
  while (true) {
    const std::size_t at = repr.find(name, from);
    if (at == std::string_view::npos) return std::nullopt;
    const std::size_t eq = at + name.size();
    const bool boundary = at == 0 || repr[at - 1] == ' ' || repr[at - 1] == '(' || repr[at - 1] == ',';
    if (boundary && eq < repr.size() && repr[eq] == '=') {
      std::size_t end = eq + 1;
      while (end < repr.size() && repr[end] != ' ' && repr[end] != ',' && repr[end] != ')') ++end;
      return repr.substr(eq + 1, end - eq - 1);
    }
    from = at + 1;
  }
}

// "offload_optimizer=DeepSpeedZeroOffloadOptimizerConfig(device='cpu', ...)" -> "cpu"; "None" -> "none".
std::optional<std::string> offloadDevice(std::string_view repr, std::string_view name) {
  const auto value = reprField(repr, name);
  if (!value) return std::nullopt;
  if (*value == "None") return std::string("none");
  const std::size_t at = repr.find(std::string(name) + "=");
  const std::size_t dev = repr.find("device=", at);
  if (dev == std::string_view::npos || dev - at > 120) return std::nullopt;
  std::string_view rest = repr.substr(dev + 7);
  std::size_t end = 0;
  while (end < rest.size() && rest[end] != ',' && rest[end] != ')' && rest[end] != ' ') ++end;
  std::string device(rest.substr(0, end));
  device.erase(std::remove(device.begin(), device.end(), '\''), device.end());
  const std::size_t dot = device.rfind('.');  // <OffloadDeviceEnum.cpu: 'cpu'> style
  if (dot != std::string::npos) device.erase(0, dot + 1);
  device.erase(std::remove(device.begin(), device.end(), '<'), device.end());
  device.erase(std::remove(device.begin(), device.end(), ':'), device.end());
  return device;
}

void rememberConfigDump(State& s, std::string_view name, std::string_view value) {
  auto& cfg = s.facts.resolvedConfig;
  value = text::trim(value);
  auto set = [&](const std::string& key, std::string_view v) {
    if (!v.empty()) cfg[key] = text::sanitize(v, 40);
  };
  if (name == "zero_config") {
    for (std::string_view field : {"stage", "overlap_comm", "contiguous_gradients", "reduce_scatter",
                                   "reduce_bucket_size", "allgather_bucket_size", "zero_hpz_partition_size"})
      if (auto v = reprField(value, field)) set("zero_optimization." + std::string(field), *v);
    if (auto d = offloadDevice(value, "offload_optimizer")) set("zero_optimization.offload_optimizer.device", *d);
    if (auto d = offloadDevice(value, "offload_param")) set("zero_optimization.offload_param.device", *d);
  } else if (name == "zero_optimization_stage") {
    set("zero_optimization.stage", value);
  } else if (name == "bfloat16_enabled" || name == "fp16_enabled") {
    set(name == "fp16_enabled" ? "fp16.enabled" : "bf16.enabled", value);
  } else if (name == "bfloat16_config" || name == "float16_config") {
    const std::string section = name == "float16_config" ? "fp16" : "bf16";
    for (std::string_view field : {"enabled", "check_grad_overflow", "min_loss_scale", "initial_scale_power"})
      if (auto v = reprField(value, field)) set(section + "." + std::string(field), *v);
  } else {
    set(std::string(name), value);
  }
}

void rememberHostRanks(State& s, std::string_view dict, bool globalRanks) {
  // {'worker-0': [0, 1], 'worker-1': [2, 3]}
  std::size_t pos = 0;
  std::size_t total = 0;
  while (s.facts.hostRanks.size() < limits::kHostRankEntries) {
    const std::size_t q1 = dict.find('\'', pos);
    if (q1 == std::string_view::npos) break;
    const std::size_t q2 = dict.find('\'', q1 + 1);
    if (q2 == std::string_view::npos) break;
    const std::size_t open = dict.find('[', q2);
    const std::size_t close = dict.find(']', q2);
    if (open == std::string_view::npos || close == std::string_view::npos || open > close) break;
    const std::string host(dict.substr(q1 + 1, q2 - q1 - 1));
    std::vector<int> ranks;
    std::string_view list = dict.substr(open + 1, close - open - 1);
    std::size_t p = 0;
    while (p < list.size() && ranks.size() < limits::kRanksPerSet) {
      while (p < list.size() && !text::isDigit(list[p])) ++p;
      if (auto n = text::parseIntAt(list, p)) ranks.push_back(static_cast<int>(*n));
      else break;
    }
    total += ranks.size();
    if (globalRanks) s.facts.hostRanks[host] = std::move(ranks);
    pos = close + 1;
  }
  if (!globalRanks && total > 0 && !s.facts.worldSize) s.facts.worldSize = static_cast<int>(total);
}

void rememberVersion(std::optional<std::string>& slot, std::string_view v) {
  if (!slot && !v.empty()) slot = text::sanitize(v, 40);
}

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

}  // namespace

bool handleFingerprint(State& s, const LineContext& c, const FpMatch& m, const std::vector<FpMatch>& all) {
  StreamState& st = s.streams[c.stream];
  const std::string_view msg = c.prefix->message;
  switch (m.kind) {
    // --- memory and exits -------------------------------------------------
    case Fp::CudaOom: {
      Accumulator* a = record(s, "cuda-oom", occurrenceOf(c));
      if (a && a->total == 1) addDetail(a, oomDetail(msg));
      return true;
    }
    case Fp::CpuAllocFail: {
      Accumulator* a = record(s, "host-oom", occurrenceOf(c));
      addDetail(a, "The CPU allocator could not allocate host memory.");
      return true;
    }
    case Fp::LauncherExit: {
      const long long code = toInt(m.groups[0], 0);
      ExitObservation e;
      e.source = ExitSource::Launcher;
      e.code = code;
      e.host = std::string(c.prefix->host);
      e.line = c.lineNo;
      recordExit(s, c, e);
      Occurrence occ = occurrenceOf(c, false);
      if (code == -9) {
        Accumulator* a = record(s, "host-oom", occ);
        addDetail(a, "The DeepSpeed launcher reports a worker exit code of -9 (SIGKILL).");
      } else if (code != 0) {
        Accumulator* a = record(s, "worker-exit", occ);
        addDetail(a, fmt::format("The DeepSpeed launcher reports a worker exit code of {}.", code));
      }
      return true;
    }
    case Fp::TorchrunFailed: {
      const long long code = toInt(m.groups[0], 0);
      const int local = static_cast<int>(toInt(m.groups[1], -1));
      ExitObservation e;
      e.source = ExitSource::Torchrun;
      e.code = code;
      e.localRank = local;
      e.host = std::string(c.prefix->host);
      e.line = c.lineNo;
      recordExit(s, c, e);
      Occurrence occ = occurrenceOf(c, false);
      if (local >= 0) {
        occ.rank = local;
        occ.rankSource = RankSource::LocalPrefix;
      }
      if (code == -9) {
        Accumulator* a = record(s, "host-oom", occ);
        addDetail(a, fmt::format("torchrun reports local rank {} exited with -9 (SIGKILL).", local));
      } else if (code != 0) {
        Accumulator* a = record(s, "worker-exit", occ);
        addDetail(a, fmt::format("torchrun reports local rank {} exited with code {}.", local, code));
      }
      return true;
    }
    case Fp::SignalReceived: {
      if (s.torchrunBlockActive) return true;  // part of the failure summary, handled there
      const long long sig = toInt(m.groups[0], 0);
      if (sig == 9) {
        Accumulator* a = record(s, "host-oom", occurrenceOf(c));
        addDetail(a, "A worker received signal 9 (SIGKILL).");
      } else if (c.prefix->rank && (sig == 6 || sig == 15)) {
        s.collateralRanks.add(*c.prefix->rank);
      }
      return true;
    }
    case Fp::LauncherKilling: {
      const long long pid = toInt(m.groups[0], -1);
      auto it = s.pidToLocalRank.find(pid);
      std::string label = "launcher killed pid " + std::to_string(pid);
      if (it != s.pidToLocalRank.end()) label += " (local rank " + std::to_string(it->second) + ")";
      addTimelineEvent(s, c.stream, makeEvidence(c), TimelineEventKind::Exit, "launcher-kill", std::move(label));
      return true;
    }
    case Fp::ProcessSpawned:
      if (s.pidToLocalRank.size() < limits::kPidMap)
        s.pidToLocalRank[toInt(m.groups[0], -1)] = static_cast<int>(toInt(m.groups[1], -1));
      return false;
    case Fp::RootCauseHeader:
    case Fp::FailuresHeader:
      finishTorchrunEntry(s);
      s.torchrunBlockActive = true;
      s.torchrunBlockRoot = m.kind == Fp::RootCauseHeader;
      return true;
    case Fp::ChildFailed:
      return true;

    // --- collectives --------------------------------------------------------
    case Fp::WatchdogTimeout: {
      Accumulator* a = record(s, "nccl-watchdog-timeout", occurrenceOf(c));
      if (c.prefix->rank) {
        if (!s.watchdog.count(*c.prefix->rank) && s.watchdog.size() < limits::kRanksPerSet) {
          WatchdogObservation w;
          w.seq = toInt(m.groups[0]);
          w.opType = text::sanitize(m.groups[1], 40);
          w.timeoutMs = toInt(m.groups[4]);
          w.ranForMs = toInt(m.groups[5]);
          w.line = c.lineNo;
          w.time = s.lastTime;
          s.watchdog.emplace(*c.prefix->rank, w);
        }
      } else {
        ++s.unrankedTimeouts;
      }
      if (a && a->total == 1)
        addDetail(a, fmt::format("The first timeout line shows SeqNum={} OpType={}.", m.groups[0], m.groups[1]));
      return true;
    }
    case Fp::WatchdogWork: {
      record(s, "nccl-watchdog-timeout", occurrenceOf(c));
      if (c.prefix->rank) {
        auto it = s.watchdog.find(*c.prefix->rank);
        if (it == s.watchdog.end() && s.watchdog.size() < limits::kRanksPerSet) {
          WatchdogObservation w;
          w.seq = toInt(m.groups[0]);
          w.line = c.lineNo;
          w.time = s.lastTime;
          it = s.watchdog.emplace(*c.prefix->rank, w).first;
        }
        if (it != s.watchdog.end()) {
          it->second.lastEnqueued = toInt(m.groups[1]);
          it->second.lastCompleted = toInt(m.groups[2]);
        }
      } else {
        ++s.unrankedTimeouts;
      }
      return true;
    }
    case Fp::WatchdogTerminated:
      if (has(all, Fp::WatchdogTimeout)) return true;
      [[fallthrough]];
    case Fp::WatchdogBoilerplate:
    case Fp::HeartbeatTimeout: {
      Occurrence occ = occurrenceOf(c);
      if (occ.rank) s.collateralRanks.add(*occ.rank);
      record(s, "nccl-process-abort", occ);
      return true;
    }
    case Fp::CommAborted: {
      Occurrence occ = occurrenceOf(c);
      if (!occ.rank) {
        occ.rank = static_cast<int>(toInt(m.groups[0], -1));
        occ.rankSource = RankSource::Global;
        if (*occ.rank < 0) occ.rank.reset();
      }
      if (occ.rank) s.collateralRanks.add(*occ.rank);
      record(s, "nccl-process-abort", occ);
      return true;
    }
    case Fp::NcclError: {
      if (has(all, Fp::WatchdogTimeout) || has(all, Fp::WatchdogTerminated) || has(all, Fp::CommAborted)) return true;
      const bool remote = m.groups[0] == "Remote" || msg.find("remote process exited") != std::string_view::npos;
      Occurrence occ = occurrenceOf(c);
      if (remote) {
        // A peer went away: the usual consequence of another rank's failure.
        if (occ.rank) s.collateralRanks.add(*occ.rank);
        addTimelineEvent(s, c.stream, occ.evidence, TimelineEventKind::Abort, "nccl-remote-error", "ncclRemoteError");
        return true;
      }
      Accumulator* a = record(s, "nccl-error", occ);
      if (a && a->total == 1) addDetail(a, "First error: " + text::sanitize(text::trim(msg), 240));
      return true;
    }
    case Fp::PortInUse:
      record(s, "port-in-use", occurrenceOf(c));
      return true;
    case Fp::NcclVersion:
      rememberVersion(s.facts.ncclVersion, m.groups[0]);
      return false;

    // --- numerics -------------------------------------------------------------
    case Fp::Overflow: {
      ++s.numerics.overflowLines;
      const Occurrence occ = occurrenceOf(c, false);
      record(s, "fp16-overflow-skips", occ);
      const auto attempted = toDouble(m.groups[0]);
      const auto reduced = toDouble(m.groups[1]);
      if (reduced && (!s.numerics.minScale || *reduced < *s.numerics.minScale)) s.numerics.minScale = reduced;
      if (attempted && reduced && (*reduced <= 1.0 || *reduced >= *attempted)) {
        ++s.numerics.floorHits;
        RecordOptions o;
        o.tier = Tier::Numeric;
        record(s, "fp16-loss-scale-floor", occ, o);
      }
      return true;
    }
    case Fp::LossScaleMin: {
      RecordOptions o;
      o.tier = Tier::Primary;
      Accumulator* a = record(s, "fp16-loss-scale-floor", occurrenceOf(c, false), o);
      addDetail(a, "DeepSpeed stopped the run: the loss scale was already at its minimum.");
      return true;
    }

    // --- ZeRO and checkpoints ---------------------------------------------
    case Fp::ZeroParamAssert: {
      Accumulator* a = record(s, "zero3-param-state-assert", occurrenceOf(c));
      if (a && a->total == 1) addDetail(a, fmt::format("Parameter id {} had status {}.", m.groups[0], m.groups[1]));
      return true;
    }
    case Fp::ZeroReducedTwice: {
      Accumulator* a = record(s, "zero-grad-reduced-twice", occurrenceOf(c));
      if (a && a->total == 1) addDetail(a, fmt::format("Parameter {} was reduced twice.", m.groups[0]));
      return true;
    }
    case Fp::Zero3PartitionedParam:
      record(s, "zero3-partitioned-param", occurrenceOf(c));
      return true;
    case Fp::CkptSizeMismatch: {
      Accumulator* a = record(s, "checkpoint-size-mismatch", occurrenceOf(c));
      const std::string name = text::sanitize(m.groups[0], 160);
      if (m.groups[1].empty() || m.groups[1] == "0")
        addDetail(a, "The checkpoint holds empty tensors (torch.Size([0])), e.g. " + name +
                         ": it was saved from a partitioned ZeRO-3 model.");
      else if (m.groups[2].empty() || m.groups[2] == "0")
        addDetail(a, "The model side is torch.Size([0]), e.g. " + name + ": the model is still partitioned by ZeRO-3 "
                     "while loading.");
      else
        addDetail(a, "Shapes differ, e.g. " + name + ": checkpoint [" + std::string(m.groups[1]) + "] vs model [" +
                         std::string(m.groups[2]) + "].");
      return true;
    }
    case Fp::CkptDpMismatch: {
      Accumulator* a = record(s, "checkpoint-dp-world-size", occurrenceOf(c));
      addDetail(a, fmt::format("Saved with a data-parallel world size of {}, loaded with {}.", m.groups[0], m.groups[1]));
      return true;
    }
    case Fp::CkptNoLatest: {
      Accumulator* a = record(s, "checkpoint-latest-missing", occurrenceOf(c));
      addDetail(a, "Looked for " + text::sanitize(m.groups[0], 200) + ".");
      return true;
    }

    // --- configuration --------------------------------------------------------
    case Fp::PydanticHeader: {
      st.pydanticModel = text::sanitize(m.groups[1], 80);
      const long long count = std::clamp<long long>(toInt(m.groups[0], 1), 1, 50);
      st.pydanticLinesLeft = static_cast<std::size_t>(count * 4 + 4);
      return true;
    }
    case Fp::PydanticExtraV1:
    case Fp::PydanticExtraV2: {
      const std::string_view key = !m.groups[0].empty() ? m.groups[0] : std::string_view(st.previousBareWord);
      Accumulator* a = record(s, "config-extra-key", occurrenceOf(c));
      if (!key.empty()) {
        addConfigKey(a, qualifiedKey(st, key));
        const std::string_view section = sectionOfModel(st.pydanticModel);
        addDetail(a, fmt::format("`{}` is not defined{}{}.", text::sanitize(key, 80),
                                 section.empty() ? "" : " in " + std::string(section),
                                 st.pydanticModel.empty() ? "" : " (" + st.pydanticModel + ")"));
      }
      addDetail(a, m.kind == Fp::PydanticExtraV1
                       ? "The pydantic-v1 wording points at DeepSpeed 0.14.x or older."
                       : "The pydantic-v2 wording points at DeepSpeed 0.15.0 or newer.");
      return true;
    }
    case Fp::PydanticOtherV2:
    case Fp::PydanticOtherV1: {
      if (st.pydanticLinesLeft == 0 || has(all, Fp::PydanticExtraV1) || has(all, Fp::PydanticExtraV2)) return false;
      if (m.kind == Fp::PydanticOtherV2 && m.groups[2] == "extra_forbidden") return false;
      const std::string_view key = !m.groups[0].empty() ? m.groups[0] : std::string_view(st.previousBareWord);
      Accumulator* a = record(s, "config-validation-error", occurrenceOf(c));
      if (!key.empty()) addConfigKey(a, qualifiedKey(st, key));
      addDetail(a, fmt::format("`{}`: {}", text::sanitize(key, 80), text::sanitize(text::trim(m.groups[1]), 160)));
      return true;
    }
    case Fp::BatchAssert: {
      Accumulator* a = record(s, "batch-size-assert", occurrenceOf(c));
      if (!m.groups[0].empty())
        addDetail(a, fmt::format("train_batch_size {} != micro batch {} × accumulation steps {} × data-parallel "
                                 "world size {}.",
                                 m.groups[0], m.groups[1], m.groups[2], m.groups[3]));
      else if (!m.groups[4].empty())
        addDetail(a, fmt::format("{} is {}; it must be greater than 0.", m.groups[4], m.groups[5]));
      else
        addDetail(a, "Neither train_batch_size nor train_micro_batch_size_per_gpu is given.");
      return true;
    }
    case Fp::HfMismatch:
      record(s, "hf-config-mismatch", occurrenceOf(c));
      st.hfMismatchLinesLeft = 32;
      return true;
    case Fp::Fp16Bf16Both:
      record(s, "fp16-bf16-both", occurrenceOf(c));
      return true;
    case Fp::AutoNotFilled:
      record(s, config::ruleCode(config::RuleId::AutoNotFilled), occurrenceOf(c));
      return true;
    case Fp::MaxGradNormOpt: {
      RecordOptions o;
      const bool raised = c.exceptionLine || msg.find("ValueError") != std::string_view::npos;
      o.tier = raised ? Tier::Primary : Tier::Advisory;
      o.severity = raised ? analysis::Severity::Error : analysis::Severity::Warning;
      record(s, config::ruleCode(config::RuleId::MaxGradNormInOptimizer), occurrenceOf(c), o);
      return true;
    }
    case Fp::UntestedOptimizer: record(s, "untested-zero-optimizer", occurrenceOf(c)); return true;
    case Fp::AmpZero: record(s, config::ruleCode(config::RuleId::AmpWithZero), occurrenceOf(c)); return true;
    case Fp::DuplicateKeys: {
      Accumulator* a = record(s, "duplicate-config-keys", occurrenceOf(c));
      addDetail(a, "Duplicated: " + text::sanitize(m.groups[0], 160));
      return true;
    }
    case Fp::ZeroSectionMissing: record(s, "accelerate-zero-section-missing", occurrenceOf(c)); return true;
    case Fp::PartialOffload: record(s, "partial-offload-stage", occurrenceOf(c)); return true;
    case Fp::PipelineZero: record(s, "pipeline-zero-stage", occurrenceOf(c)); return true;
    case Fp::DeprecatedKey: {
      Accumulator* a = record(s, "config-deprecated-key", occurrenceOf(c));
      const bool first = !m.groups[0].empty();
      const std::string_view oldKey = first ? m.groups[0] : m.groups[2];
      const std::string_view newKey = first ? m.groups[1] : m.groups[3];
      addConfigKey(a, text::sanitize(oldKey, 80));
      addDetail(a, fmt::format("`{}` is deprecated; use `{}`.", text::sanitize(oldKey, 80), text::sanitize(newKey, 80)));
      return true;
    }
    case Fp::UnsupportedOptimizer: {
      Accumulator* a = record(s, "unsupported-optimizer", occurrenceOf(c));
      addDetail(a, "optimizer.type was " + text::sanitize(m.groups[0], 80) + ".");
      return true;
    }
    case Fp::OpBuild: {
      Accumulator* a = record(s, "op-build-failure", occurrenceOf(c));
      addDetail(a, "The op `" + text::sanitize(m.groups[0], 60) + "` failed to build.");
      return true;
    }
    case Fp::DsOptAdamMissing: {
      Accumulator* a = record(s, "op-build-failure", occurrenceOf(c));
      addDetail(a, "DeepSpeedCPUAdam has no ds_opt_adam: the cpu_adam op was never loaded; its build error is "
                   "earlier in the full output.");
      return true;
    }

    // --- facts about the run ----------------------------------------------
    case Fp::DsVersion:
      rememberVersion(s.facts.deepspeedVersion, m.firstOf(0, 4));
      return false;
    case Fp::TorchVersion:
      rememberVersion(s.facts.torchVersion, m.firstOf(0, 3));
      return false;
    case Fp::ConfigDump:
      rememberConfigDump(s, m.groups[0], m.groups[1]);
      return false;
    case Fp::WorldSize:
      if (!s.facts.worldSize) {
        const long long n = toInt(m.groups[0], -1);
        if (n > 0 && n < (1 << 24)) s.facts.worldSize = static_cast<int>(n);
      }
      return false;
    case Fp::WorldInfo:
      if (!m.groups[0].empty()) rememberHostRanks(s, m.groups[0], false);
      else rememberHostRanks(s, m.groups[1], true);
      return false;
    case Fp::PipelineOverlapOff:
      s.facts.pipelineDisabledOverlap = true;
      return false;
    case Fp::Count:
      break;
  }
  return false;
}

void handleContinuations(State& s, const LineContext& c, std::string_view message, bool /*matched*/) {
  StreamState& st = s.streams[c.stream];
  if (st.pydanticLinesLeft > 0) --st.pydanticLinesLeft;
  if (st.hfMismatchLinesLeft == 0) return;
  --st.hfMismatchLinesLeft;
  // "- ds train_micro_batch_size_per_gpu=1 vs hf per_device_train_batch_size=8"
  const std::string_view t = text::trim(message);
  if (t.substr(0, 5) != "- ds ") return;
  const std::string_view rest = t.substr(5);
  const std::size_t eq = rest.find('=');
  if (eq == std::string_view::npos || eq == 0) return;
  auto it = s.accumulatorIndex.find("hf-config-mismatch");
  if (it == s.accumulatorIndex.end()) return;
  Accumulator* a = &s.accumulators[it->second];
  addConfigKey(a, text::sanitize(rest.substr(0, eq), 80));
  addDetail(a, text::sanitize(t.substr(2), 200));
}

}  // namespace dsls::logs::detail

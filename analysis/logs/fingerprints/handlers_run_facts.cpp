// Facts about the run that later explain a failure: versions, the resolved config DeepSpeed
// prints at start-up, the world size and which host runs which ranks. These handlers only
// observe: what a line shows is returned, and applyObserved takes it into the state.
#include <algorithm>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

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

// The resolved config entries of one line of DeepSpeed's config dump.
std::vector<std::pair<std::string, std::string>> configDump(std::string_view name, std::string_view value) {
  std::vector<std::pair<std::string, std::string>> cfg;
  value = text::trim(value);
  auto set = [&](const std::string& key, std::string_view v) {
    if (!v.empty()) cfg.emplace_back(key, text::sanitize(v, 40));
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
  return cfg;
}

// "[0, 1, 2]" -> ranks, capped.
std::vector<int> rankList(std::string_view list) {
  std::vector<int> ranks;
  std::size_t p = 0;
  while (p < list.size() && ranks.size() < limits::kRanksPerSet) {
    while (p < list.size() && !text::isDigit(list[p])) ++p;
    if (auto n = text::parseIntAt(list, p)) ranks.push_back(static_cast<int>(*n));
    else break;
  }
  return ranks;
}

// {'worker-0': [0, 1], 'worker-1': [2, 3]}: the ranks of each host.
std::vector<std::pair<std::string, std::vector<int>>> hostRanks(std::string_view dict) {
  std::vector<std::pair<std::string, std::vector<int>>> hosts;
  std::size_t pos = 0;
  while (true) {
    const std::size_t q1 = dict.find('\'', pos);
    if (q1 == std::string_view::npos) break;
    const std::size_t q2 = dict.find('\'', q1 + 1);
    if (q2 == std::string_view::npos) break;
    const std::size_t open = dict.find('[', q2);
    const std::size_t close = dict.find(']', q2);
    if (open == std::string_view::npos || close == std::string_view::npos || open > close) break;
    hosts.emplace_back(std::string(dict.substr(q1 + 1, q2 - q1 - 1)),
                       rankList(dict.substr(open + 1, close - open - 1)));
    pos = close + 1;
  }
  return hosts;
}

Observed observeDsVersion(const HitView& hit) {
  Observed o;
  o.facts.deepspeedVersion = hit.m.firstOf({"engine", "ds_report", "pip", "hf_env"});
  return o;
}

Observed observeTorchVersion(const HitView& hit) {
  Observed o;
  o.facts.torchVersion = hit.m.firstOf({"ds_report", "pip", "hf_env"});
  return o;
}

Observed observeConfigDump(const HitView& hit) {
  Observed o;
  o.facts.config = configDump(hit.group("name"), hit.group("value"));
  return o;
}

Observed observeWorldSize(const HitView& hit) {
  Observed o;
  const long long n = toInt(hit.group("world_size"), -1);
  if (n > 0 && n < (1 << 24)) o.facts.worldSize = static_cast<int>(n);
  return o;
}

Observed observeFairscaleParallelSize(const HitView& hit) {
  using Fairscale = Observed::Facts::Fairscale;
  Observed o;
  const long long n = toInt(hit.group("size"), -1);
  if (n <= 0 || n >= (1 << 12)) return o;
  const std::string_view kind = hit.group("kind");
  const Fairscale which = kind == "ddp" ? Fairscale::Data : kind == "pipeline" ? Fairscale::Pipeline : Fairscale::Model;
  o.facts.fairscaleSize = {which, static_cast<int>(n)};
  return o;
}

Observed observeWorldInfo(const HitView& hit) {
  Observed o;
  o.facts.globalHostRanks = hit.group("world_info").empty();
  o.facts.hostRanks = hostRanks(o.facts.globalHostRanks ? hit.group("rank_mapping") : hit.group("world_info"));
  return o;
}

Observed observePipelineOverlapOff(const HitView&) {
  Observed o;
  o.facts.pipelineDisabledOverlap = true;
  return o;
}

}  // namespace

void rememberVersion(std::optional<std::string>& slot, std::string_view version) {
  if (!slot && !version.empty()) slot = text::sanitize(version, 40);
}

DSLS_OBSERVING_HANDLER(DsVersion) DSLS_OBSERVING_HANDLER(TorchVersion) DSLS_OBSERVING_HANDLER(ConfigDump)
DSLS_OBSERVING_HANDLER(WorldSize) DSLS_OBSERVING_HANDLER(FairscaleParallelSize) DSLS_OBSERVING_HANDLER(WorldInfo)
DSLS_OBSERVING_HANDLER(PipelineOverlapOff)

}  // namespace dsls::logs::detail

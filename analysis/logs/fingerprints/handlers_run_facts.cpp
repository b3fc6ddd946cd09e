// Facts about the run that later explain a failure: versions, the resolved config DeepSpeed
// prints at start-up, the world size and which host runs which ranks.
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

// {'worker-0': [0, 1], 'worker-1': [2, 3]}: global ranks per host, or local ones (world size only).
void rememberHostRanks(State& s, std::string_view dict, bool globalRanks) {
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
    std::vector<int> ranks = rankList(dict.substr(open + 1, close - open - 1));
    total += ranks.size();
    if (globalRanks) s.facts.hostRanks[std::string(dict.substr(q1 + 1, q2 - q1 - 1))] = std::move(ranks);
    pos = close + 1;
  }
  if (!globalRanks && total > 0 && !s.facts.worldSize) s.facts.worldSize = static_cast<int>(total);
}

}  // namespace

void rememberVersion(std::optional<std::string>& slot, std::string_view version) {
  if (!slot && !version.empty()) slot = text::sanitize(version, 40);
}

bool onDsVersion(const Hit& hit) {
  rememberVersion(hit.s.facts.deepspeedVersion, hit.m.firstOf({"engine", "ds_report", "pip", "hf_env"}));
  return false;
}

bool onTorchVersion(const Hit& hit) {
  rememberVersion(hit.s.facts.torchVersion, hit.m.firstOf({"ds_report", "pip", "hf_env"}));
  return false;
}

bool onConfigDump(const Hit& hit) {
  rememberConfigDump(hit.s, hit.group("name"), hit.group("value"));
  return false;
}

bool onWorldSize(const Hit& hit) {
  if (hit.s.facts.worldSize) return false;
  const long long n = toInt(hit.group("world_size"), -1);
  if (n > 0 && n < (1 << 24)) hit.s.facts.worldSize = static_cast<int>(n);
  return false;
}

bool onFairscaleParallelSize(const Hit& hit) {
  RunFacts& f = hit.s.facts;
  const long long n = toInt(hit.group("size"), -1);
  if (n <= 0 || n >= (1 << 12)) return false;
  const std::string_view kind = hit.group("kind");
  std::optional<int>& slot = kind == "ddp" ? f.fairscaleData : kind == "pipeline" ? f.fairscalePipeline : f.fairscaleModel;
  slot = static_cast<int>(n);
  if (f.worldSize || !f.fairscaleModel || !f.fairscaleData || !f.fairscalePipeline) return false;
  const long long world = static_cast<long long>(*f.fairscaleModel) * *f.fairscaleData * *f.fairscalePipeline;
  if (world < (1 << 24)) f.worldSize = static_cast<int>(world);
  return false;
}

bool onWorldInfo(const Hit& hit) {
  if (!hit.group("world_info").empty()) rememberHostRanks(hit.s, hit.group("world_info"), false);
  else rememberHostRanks(hit.s, hit.group("rank_mapping"), true);
  return false;
}

bool onPipelineOverlapOff(const Hit& hit) {
  hit.s.facts.pipelineDisabledOverlap = true;
  return false;
}

}  // namespace dsls::logs::detail

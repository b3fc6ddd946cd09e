// Rules tied to the ZeRO stage: keys the chosen stage never reads, offload settings
// that need stage 3, NVMe offload without a path, the removed legacy stage 1, and the
// ZeRO++ hpZ race of releases before 0.13.5.
#include "analysis/config/rules/rule_support.h"
#include "analysis/config/rules/value_constraints.h"

#include <fmt/format.h>

#include <algorithm>

namespace dsls::config {

using namespace rules;

namespace {

std::string stageList(const std::vector<int>& stages) {
  std::string s;
  for (std::size_t i = 0; i < stages.size(); ++i)
    s += (i ? (i + 1 == stages.size() ? " and " : ", ") : "") + std::to_string(stages[i]);
  return s;
}

bool hasStage(const std::vector<int>& stages, int stage) {
  return stages.empty() || std::find(stages.begin(), stages.end(), stage) != stages.end();
}

std::string deviceOf(const json::Node* offload) {
  if (!offload) return "";
  const json::Member* d = offload->find("device");
  return d && d->value.kind == json::Kind::String ? std::string(d->value.string) : std::string();
}

bool realDevice(const std::string& d) { return d == "cpu" || d == "nvme"; }

// Keys that offload-needs-stage reports instead, because they assert or switch a feature on.
bool reportedAsNeedsStage(std::string_view path, const json::Node& value) {
  if (path == "zero_optimization.offload_optimizer.ratio")
    return value.kind == json::Kind::Number && value.number < 1.0;
  if (path == "zero_optimization.offload_optimizer.super_offload") return isTrue(value);
  return false;
}

void ignoredIn(const RuleContext& ctx, const json::Node& object, const std::string& path, int stage,
               std::vector<Finding>& out) {
  for (const json::Member& m : object.members()) {
    std::string child = path + "." + std::string(m.key);
    const catalog::KeyInfo* key = catalog::findKey(child);
    if (!key || !key->deprecatedBy.empty() || key->path == "zero_optimization.stage") continue;
    if (reportedAsNeedsStage(key->path, m.value)) continue;
    if (hasStage(key->stages, stage)) {
      // The optimizer offload block is read at stages 1 and 2 too; some of its options are not.
      if (key->path == "zero_optimization.offload_optimizer" && m.value.kind == json::Kind::Object)
        ignoredIn(ctx, m.value, child, stage, out);
      continue;
    }
    bool offloadBlock = key->path == "zero_optimization.offload_param" || key->path == "zero_optimization.offload_optimizer";
    std::string device = deviceOf(objectOf(&m));
    // "device": "none" asks for no offload, which is what every stage gives: nothing is ignored.
    if (offloadBlock && device == "none") continue;
    // An offload to a real device that never happens is more than an unused key: a warning.
    Severity sev =
        offloadBlock && realDevice(device) ? Severity::Warning : defaultSeverity(RuleId::IgnoredAtStage);
    std::string message;
    if (stage == 0) {
      message = fmt::format("\"{}\" has no effect: ZeRO is off (stage 0), and DeepSpeed reads it only at stage{} {}.",
                            m.key, key->stages.size() > 1 ? "s" : "", stageList(key->stages));
    } else if (key->path == "zero_optimization.offload_param") {
      message = fmt::format("offload_param works only with ZeRO stage 3: at stage {} parameters stay on the GPU{} and "
                            "DeepSpeed gives no warning (read from its engine code).",
                            stage, realDevice(device) ? fmt::format(" although device is \"{}\",", device) : ",");
    } else {
      message = fmt::format("\"{}\" has no effect at ZeRO stage {}: DeepSpeed reads it only at stage{} {}.", m.key,
                            stage, key->stages.size() > 1 ? "s" : "", stageList(key->stages));
    }
    Finding f = makeFinding(RuleId::IgnoredAtStage, sev, std::move(message), m.keyRange);
    f.tags.push_back(Tag::Unnecessary);
    if (ctx.model.zero.stage.member)
      f.related.push_back({"", ctx.model.zero.stage.member->keyRange, fmt::format("stage {} is set here", stage)});
    f.fixes.push_back({fmt::format("Remove \"{}\"", m.key), {removeMember(ctx.text, object, m)}, true, false});
    out.push_back(std::move(f));
  }
}

}  // namespace

void checkIgnoredAtStage(const RuleContext& ctx, std::vector<Finding>& out) {
  std::optional<int> stage = knownStage(ctx);
  const json::Node* zero = objectOf(ctx.model.zero.section);
  if (!stage || !zero || *stage < 0 || *stage > 3) return;
  ignoredIn(ctx, *zero, "zero_optimization", *stage, out);
}

void checkOffloadNeedsStage(const RuleContext& ctx, std::vector<Finding>& out) {
  checkValueConstraints(RuleId::OffloadNeedsStage, ctx, out);  // offload_optimizer.ratio below stage 3
  std::optional<int> stage = knownStage(ctx);
  const json::Node* zero = objectOf(ctx.model.zero.section);
  if (!stage || !zero) return;
  const json::Node* opt = objectOf(zero->find("offload_optimizer"));
  if (!opt || *stage == 3) return;
  auto related = [&](Finding& f) {
    if (ctx.model.zero.stage.member)
      f.related.push_back({"", ctx.model.zero.stage.member->keyRange, fmt::format("stage {} is set here", *stage)});
  };
  if (const json::Member* super = opt->find("super_offload"); super && isTrue(super->value)) {
    // Not refused, only unused: a warning.
    Finding f = makeFinding(RuleId::OffloadNeedsStage, Severity::Warning,
                            fmt::format("super_offload is a ZeRO stage 3 feature; at stage {} it is not used.", *stage),
                            super->keyRange);
    related(f);
    out.push_back(std::move(f));
  }
  if (const json::Member* device = opt->find("device");
      device && device->value.kind == json::Kind::String && device->value.string == "nvme" && *stage > 0) {
    // Not refused: the offload silently does not happen, a warning.
    Finding f = makeFinding(RuleId::OffloadNeedsStage, Severity::Warning,
                            fmt::format("Optimizer offload to NVMe needs ZeRO stage 3. ZeRO-{} offloads the optimizer "
                                        "to the CPU only, and in the releases checked it treats \"nvme\" as no offload "
                                        "at all (it tests for \"cpu\"). Use stage 3, or device \"cpu\".",
                                        *stage),
                            device->value.range);
    related(f);
    f.fixes.push_back({"Offload to the CPU instead", {replaceValue(*device, "\"cpu\"")}, false, false});
    out.push_back(std::move(f));
  }
}

void checkNvmePath(const RuleContext& ctx, std::vector<Finding>& out) {
  const json::Node* zero = objectOf(ctx.model.zero.section);
  if (!zero) return;
  std::optional<int> stage = knownStage(ctx);
  for (std::string_view block : {"offload_param", "offload_optimizer"}) {
    const json::Node* offload = objectOf(zero->find(block));
    if (deviceOf(offload) != "nvme") continue;
    // Offloads a stage never reads are reported as such, not as a missing path.
    if (stage && *stage != 3) continue;
    const json::Member* path = offload->find("nvme_path");
    if (path && path->value.kind == json::Kind::String && !path->value.string.empty()) continue;
    if (offload->find("nvme_path_per_local_rank")) continue;  // the per-rank form some newer releases accept
    const json::Member* device = offload->find("device");
    Finding f = makeFinding(RuleId::NvmePathMissing,
                            fmt::format("{} offloads to NVMe but {}: DeepSpeed builds its swap directory from "
                                        "nvme_path and fails at start-up without one. Point it at a directory on "
                                        "the NVMe drive.",
                                        block, path ? "nvme_path is empty" : "has no nvme_path"),
                            path ? path->value.range : device->value.range);
    out.push_back(std::move(f));
  }
}

void checkLegacyStage1(const RuleContext& ctx, std::vector<Finding>& out) {
  const json::Node* zero = objectOf(ctx.model.zero.section);
  if (!zero) return;
  const json::Member* legacy = zero->find("legacy_stage1");
  if (!legacy || !isTrue(legacy->value) || versionBelow(ctx, "0.5.9")) return;
  Finding f = makeFinding(RuleId::LegacyStage1,
                          "legacy_stage1: true asks for the old ZeRO stage 1 implementation, removed in DeepSpeed "
                          "0.5.9: DeepSpeed raises an exception at start-up. Remove it to use the current stage 1.",
                          legacy->value.range);
  f.fixes.push_back({"Remove \"legacy_stage1\"", {removeMember(ctx.text, *zero, *legacy)}, true, false});
  out.push_back(std::move(f));
}

void checkHpzRace(const RuleContext& ctx, std::vector<Finding>& out) {
  const json::Node* zero = objectOf(ctx.model.zero.section);
  if (!zero || knownStage(ctx) != 3) return;
  const json::Member* hpz = zero->find("zero_hpz_partition_size");
  if (!hpz || hpz->value.kind != json::Kind::Number || hpz->value.number <= 1) return;
  if (versionAtLeast(ctx, "0.13.5") || versionBelow(ctx, "0.10.0")) return;
  bool known = ctx.model.deepspeed.has_value();
  Finding f = makeFinding(
      RuleId::HpzRace, known ? Severity::Warning : Severity::Information,
      known ? fmt::format("ZeRO++ hierarchical partitioning (zero_hpz_partition_size {}) on {} has a race: the "
                          "secondary partition copy is asynchronous and a prefetch can read it early, giving zero or "
                          "NaN loss. Fixed in 0.13.5; upgrade, or set zero_hpz_partition_size to 1.",
                          sourceOf(ctx.text, hpz->value), targetLabel(ctx))
            : fmt::format("ZeRO++ hierarchical partitioning (zero_hpz_partition_size {}) had a race before DeepSpeed "
                          "0.13.5 (zero or NaN loss from an early read of the secondary partition). The DeepSpeed "
                          "version is unknown; make sure it is 0.13.5 or later.",
                          sourceOf(ctx.text, hpz->value)),
      hpz->keyRange);
  if (known) f.fixes.push_back({"Set zero_hpz_partition_size to 1", {replaceValue(*hpz, "1")}, false, false});
  out.push_back(std::move(f));
}

}  // namespace dsls::config

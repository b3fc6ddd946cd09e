// deprecated-key: old spellings DeepSpeed still converts (with a warning), ignores,
// or rejects when the new spelling is also given. Each case carries the rewrite
// DeepSpeed itself would do, as a fix.
#include "analysis/config/rules/rule_support.h"

#include <fmt/format.h>

namespace dsls::config {

using analysis::Fix;
using namespace rules;

namespace {

Finding deprecated(Severity severity, std::string message, const json::Member& m) {
  Finding f = makeFinding(RuleId::DeprecatedKey, severity, std::move(message), m.keyRange);
  f.tags.push_back(Tag::Deprecated);
  return f;
}

// "cpu_offload": true -> "offload_optimizer": {"device": "cpu"} (what DeepSpeed converts it to).
void offloadFlag(const RuleContext& ctx, const json::Node& zero, const json::Member& m, std::string_view replacement,
                 std::vector<Finding>& out) {
  if (isAuto(m.value)) return;  // DeepSpeed drops "auto" before it looks at the key
  if (const json::Member* both = zero.find(replacement)) {
    Finding f = deprecated(
        Severity::Error,
        fmt::format("\"{}\" is deprecated and \"{}\" is also set: DeepSpeed refuses the pair (\"Cannot provide "
                    "deprecated parameter '{}' and replacing parameter '{}' together\"). Keep only {}.",
                    m.key, replacement, m.key, replacement, replacement),
        m);
    f.related.push_back({"", both->keyRange, "the replacing key"});
    f.fixes.push_back({fmt::format("Remove \"{}\"", m.key), {removeMember(ctx.text, zero, m)}, true, false});
    out.push_back(std::move(f));
    return;
  }
  if (isTrue(m.value)) {
    Finding f = deprecated(Severity::Warning,
                           fmt::format("\"{}\" is deprecated: DeepSpeed converts true to \"{}\": {{\"device\": \"cpu\"}} "
                                       "with a warning. Write that instead.",
                                       m.key, replacement),
                           m);
    f.fixes.push_back({fmt::format("Replace with \"{}\": {{\"device\": \"cpu\"}}", replacement),
                       {replaceMember(m, fmt::format("\"{}\": {{\"device\": \"cpu\"}}", replacement))}, true, true});
    out.push_back(std::move(f));
    return;
  }
  Finding f = deprecated(Severity::Warning,
                         fmt::format("\"{}\" is deprecated and {} here does nothing; offloading is configured with "
                                     "\"{}\".",
                                     m.key, sourceOf(ctx.text, m.value), replacement),
                         m);
  f.tags.push_back(Tag::Unnecessary);
  f.fixes.push_back({fmt::format("Remove \"{}\"", m.key), {removeMember(ctx.text, zero, m)}, true, true});
  out.push_back(std::move(f));
}

void renamed(const RuleContext& ctx, const json::Node& object, const json::Member& m, std::string_view newName,
             std::vector<std::string_view> alsoNewNames, Severity severity, std::string why, bool bothIsError,
             bool renameSafe, std::vector<Finding>& out) {
  const json::Member* both = object.find(newName);
  for (std::string_view alt : alsoNewNames)
    if (!both) both = object.find(alt);
  if (both) {
    Finding f = deprecated(bothIsError ? Severity::Error : Severity::Warning,
                           bothIsError ? fmt::format("\"{}\" is deprecated and \"{}\" is also set: DeepSpeed refuses "
                                                     "the pair (\"Cannot provide deprecated parameter ... together\"). "
                                                     "Keep only \"{}\".",
                                                     m.key, both->key, both->key)
                                       : fmt::format("\"{}\" is deprecated and \"{}\" is also set. {}", m.key,
                                                     both->key, why),
                           m);
    f.related.push_back({"", both->keyRange, "the current spelling"});
    f.fixes.push_back({fmt::format("Remove \"{}\"", m.key), {removeMember(ctx.text, object, m)}, true, false});
    out.push_back(std::move(f));
    return;
  }
  Finding f = deprecated(severity, fmt::format("\"{}\" is deprecated: use \"{}\". {}", m.key, newName, why), m);
  f.fixes.push_back({fmt::format("Rename to \"{}\"", newName), {renameKey(m, newName)}, true, renameSafe});
  out.push_back(std::move(f));
}

void legacyZeroBoolean(const RuleContext& ctx, const json::Node& root, const json::Member& zero,
                       std::vector<Finding>& out) {
  bool on = isTrue(zero.value);
  const json::Member* allgather = root.find("allgather_size");
  std::string replacement = on ? "{\"stage\": 1}" : "{\"stage\": 0}";
  if (on && allgather && allgather->value.kind == json::Kind::Number)
    replacement = fmt::format("{{\"stage\": 1, \"allgather_bucket_size\": {}}}", sourceOf(ctx.text, allgather->value));
  Finding f = deprecated(Severity::Warning,
                         fmt::format("\"zero_optimization\": {} is the deprecated boolean form (DeepSpeed logs a "
                                     "warning); it means stage {}{}. Write an object with \"stage\".",
                                     on ? "true" : "false", on ? 1 : 0,
                                     on ? ", reading the bucket size from top-level allgather_size" : ""),
                         zero);
  Fix fix{fmt::format("Replace with {}", replacement), {replaceValue(zero, replacement)}, true, true};
  if (on && allgather) {
    f.related.push_back({"", allgather->keyRange, "read only with the boolean form"});
    if (allgather->value.kind == json::Kind::Number) fix.edits.push_back(removeMember(ctx.text, root, *allgather));
  }
  f.fixes.push_back(std::move(fix));
  out.push_back(std::move(f));
}

void allgatherSize(const RuleContext& ctx, const json::Node& root, const json::Member& m, std::vector<Finding>& out) {
  const json::Member* zero = root.find("zero_optimization");
  if (zero && zero->value.kind == json::Kind::Bool) return;  // read by the legacy form, reported there
  Finding f = deprecated(Severity::Warning,
                         "\"allgather_size\" is read only with the deprecated \"zero_optimization\": true form; here "
                         "it is ignored. The bucket size is zero_optimization.allgather_bucket_size.",
                         m);
  f.tags.push_back(Tag::Unnecessary);
  const json::Node* zeroObject = objectOf(zero);
  if (zeroObject && !zeroObject->find("allgather_bucket_size") && zeroObject->closed) {
    Fix fix{"Move it to zero_optimization.allgather_bucket_size", {removeMember(ctx.text, root, m)}, false, false};
    auto ins = insertMember(ctx.text, *zeroObject, "allgather_bucket_size", sourceOf(ctx.text, m.value));
    fix.edits.insert(fix.edits.end(), ins.begin(), ins.end());
    f.fixes.push_back(std::move(fix));
  }
  f.fixes.push_back({"Remove \"allgather_size\"", {removeMember(ctx.text, root, m)}, true, true});
  out.push_back(std::move(f));
}

// Whether the config swaps anything to NVMe, the only use of the aio section: no when every
// offload device is written and none is nvme.
bool mayUseNvme(const RuleContext& ctx) {
  for (std::string_view path : {"zero_optimization.offload_optimizer.device", "zero_optimization.offload_param.device"}) {
    const json::Member* device = memberAt(ctx.model.root, path);
    if (device && (device->value.kind != json::Kind::String || device->value.string == "nvme")) return true;
  }
  return false;
}

void threadCount(const RuleContext& ctx, const json::Node& aio, const json::Member& m, std::vector<Finding>& out) {
  if (versionBelow(ctx, "0.16.4")) return;  // the right spelling for those releases
  if (!mayUseNvme(ctx)) {
    // The rename is right, but with nothing on NVMe no release reads either spelling.
    Finding f = deprecated(Severity::Information,
                           fmt::format("\"{}\" is deprecated: use \"intra_op_parallelism\". Nothing in this config is "
                                       "offloaded to NVMe, so the aio section is not used either way.",
                                       m.key),
                           m);
    f.fixes.push_back({"Rename to \"intra_op_parallelism\"", {renameKey(m, "intra_op_parallelism")}, true,
                       versionAtLeast(ctx, "0.16.4")});
    out.push_back(std::move(f));
    return;
  }
  std::string why =
      ctx.model.deepspeed
          ? fmt::format("{} reads intra_op_parallelism and silently ignores thread_count (0.16.4 renamed it; the "
                        "documentation still shows the old name).",
                        targetLabel(ctx))
          : "From 0.16.4 DeepSpeed reads intra_op_parallelism and silently ignores thread_count (releases before "
            "0.16.4 read thread_count).";
  bool knownNew = versionAtLeast(ctx, "0.16.4");
  renamed(ctx, aio, m, "intra_op_parallelism", {}, Severity::Warning, why, false, knownNew, out);
}

void elasticCheckpoint(const RuleContext& ctx, const json::Member& m, std::vector<Finding>& out) {
  if (!isTrue(m.value) || knownStage(ctx) != 3 || versionBelow(ctx, "0.19.3")) return;
  out.push_back(deprecated(Severity::Warning,
                           "ZeRO-3 elastic checkpointing is deprecated and no longer supported; DeepSpeed 0.19.3 and "
                           "later warn about it. Use Universal Checkpointing (checkpoint.load_universal) to change "
                           "the GPU count.",
                           m));
}

void fp32Allreduce(const RuleContext& ctx, const json::Node& root, const json::Member& m, std::vector<Finding>& out) {
  Finding f = deprecated(Severity::Warning,
                         "\"fp32_allreduce\" is an early option that current DeepSpeed releases do not read (the "
                         "release that dropped it was not verified); communication_data_type: \"fp32\" does this.",
                         m);
  f.tags.push_back(Tag::Unnecessary);
  if (isTrue(m.value) && !root.find("communication_data_type"))
    f.fixes.push_back({"Replace with \"communication_data_type\": \"fp32\"",
                       {replaceMember(m, "\"communication_data_type\": \"fp32\"")}, true, false});
  else
    f.fixes.push_back({"Remove \"fp32_allreduce\"", {removeMember(ctx.text, root, m)}, true, false});
  out.push_back(std::move(f));
}

}  // namespace

void checkDeprecatedKeys(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Node& root = *ctx.model.root;
  if (const json::Member* zero = root.find("zero_optimization"); zero && zero->value.kind == json::Kind::Bool)
    legacyZeroBoolean(ctx, root, *zero, out);

  forEachMember(root, [&](const Visit& v) {
    const catalog::KeyInfo* key = catalog::findKey(v.path);
    if (!key) return false;
    std::string_view path = key->path;
    const json::Member& m = v.member;
    if (path == "zero_optimization.cpu_offload") {
      offloadFlag(ctx, v.parent, m, "offload_optimizer", out);
    } else if (path == "zero_optimization.cpu_offload_param") {
      offloadFlag(ctx, v.parent, m, "offload_param", out);
    } else if (path == "zero_optimization.cpu_offload_use_pin_memory") {
      Finding f = deprecated(Severity::Warning,
                             "\"cpu_offload_use_pin_memory\" is deprecated and DeepSpeed does not carry its value "
                             "over: set pin_memory inside offload_optimizer or offload_param instead.",
                             m);
      f.tags.push_back(Tag::Unnecessary);
      f.fixes.push_back({"Remove \"cpu_offload_use_pin_memory\"", {removeMember(ctx.text, v.parent, m)}, true, true});
      out.push_back(std::move(f));
    } else if (path == "zero_optimization.stage3_gather_fp16_weights_on_model_save") {
      renamed(ctx, v.parent, m, "stage3_gather_16bit_weights_on_model_save", {"gather_16bit_weights_on_model_save"},
              Severity::Warning, "DeepSpeed copies the value over with a warning (renamed in 0.6.0).", true, true, out);
    } else if (path == "zero_optimization.elastic_checkpoint") {
      elasticCheckpoint(ctx, m, out);
    } else if (path == "aio.thread_count") {
      threadCount(ctx, v.parent, m, out);
    } else if (path == "bfloat16" && v.parentPath.empty()) {
      if (!root.find("bf16")) {
        // Still accepted silently: worth a note and a rename, not a warning.
        Finding f = deprecated(Severity::Information,
                               "\"bfloat16\" is the old name of the \"bf16\" section; DeepSpeed still reads it when "
                               "there is no \"bf16\" key.",
                               m);
        f.fixes.push_back({"Rename to \"bf16\"", {renameKey(m, "bf16")}, true, true});
        out.push_back(std::move(f));
      }
    } else if (path == "seq_parallel_comm_data_type" && v.parentPath.empty()) {
      renamed(ctx, v.parent, m, "seq_parallel_communication_data_type", {}, Severity::Information,
              "Older releases read this spelling and newer ones the long one; the release of the rename was not "
              "verified.",
              false, false, out);
    } else if (path == "fp32_allreduce" && v.parentPath.empty()) {
      fp32Allreduce(ctx, root, m, out);
    } else if (path == "allgather_size" && v.parentPath.empty()) {
      allgatherSize(ctx, root, m, out);
    }
    return true;
  });
}

}  // namespace dsls::config

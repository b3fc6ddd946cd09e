// Settings that conflict with another part of the setup: Accelerate's required ZeRO
// section, batch keys next to elastic training, values DeepSpeed or Accelerate
// override (ineffective-setting), and two spellings of one field (conflicting-spellings).
#include "analysis/config/rules/rule_support.h"

#include <fmt/format.h>

#include <map>

namespace dsls::config {

using namespace rules;

void checkAccelerateNeedsZero(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root || ctx.model.root->find("zero_optimization")) return;
  const analysis::Launcher launcher = ctx.settings.launcher;
  if (!analysis::hfFillsAuto(launcher)) return;
  const json::Node& root = *ctx.model.root;
  Finding f = makeFinding(RuleId::AccelerateNeedsZeroSection,
                          launcher == analysis::Launcher::Accelerate
                              ? "Accelerate requires a zero_optimization section in a DeepSpeed config file: it "
                                "stops with \"Please specify the ZeRO optimization config in the DeepSpeed config.\""
                              : "HF Trainer hands the file to Accelerate's DeepSpeed plugin (current transformers "
                                "releases), which requires a zero_optimization section: it stops with \"Please specify "
                                "the ZeRO optimization config in the DeepSpeed config.\"",
                          {root.range.begin, root.range.begin + 1});
  // Stage 0 is what DeepSpeed uses without the section, so adding it changes nothing else.
  if (root.closed)
    f.fixes.push_back({"Add \"zero_optimization\": {\"stage\": 0}",
                       insertMember(ctx.text, root, "zero_optimization", "{\"stage\": 0}"), true, true});
  out.push_back(std::move(f));
}

void checkElasticityBatchKeys(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Node& root = *ctx.model.root;
  const json::Node* el = objectOf(root.find("elasticity"));
  if (!el) return;
  const json::Member* enabled = el->find("enabled");
  if (!enabled || !isTrue(enabled->value)) return;
  if (const json::Member* ignore = el->find("ignore_non_elastic_batch_info"); ignore && isTrue(ignore->value)) return;
  std::vector<const json::Member*> keys;
  for (std::string_view k : {"train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps"})
    if (const json::Member* m = root.find(k)) keys.push_back(m);
  if (keys.empty()) return;
  Finding f = makeFinding(RuleId::ElasticityBatchKeys,
                          fmt::format("Elastic training computes the batch size itself, and with "
                                      "ignore_non_elastic_batch_info false (the default) DeepSpeed raises "
                                      "ElasticityConfigError when {} is also set. Remove the batch keys or set "
                                      "ignore_non_elastic_batch_info to true.",
                                      keys.front()->key),
                          enabled->keyRange);
  for (const json::Member* m : keys) f.related.push_back({"", m->keyRange, std::string(m->key) + " is set here"});
  f.fixes.push_back({"Set ignore_non_elastic_batch_info to true",
                     insertMember(ctx.text, *el, "ignore_non_elastic_batch_info", "true"), false, false});
  out.push_back(std::move(f));
}

void checkIneffectiveSettings(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Node& root = *ctx.model.root;
  const ZeroModel& z = ctx.model.zero;
  std::optional<int> stage = knownStage(ctx);

  // ZeRO-1/2 turn contiguous_gradients back on while the optimizer is offloaded to the CPU.
  if (const json::Member* cg = z.contiguousGradients.member; cg && isFalse(cg->value) && stage &&
                                                             (*stage == 1 || *stage == 2)) {
    bool cpu = false;
    if (const json::Node* off = objectOf(z.offloadOptimizer))
      if (const json::Member* d = off->find("device"); d && d->value.kind == json::Kind::String)
        cpu = d->value.string == "cpu";
    if (const json::Node* zero = objectOf(z.section))
      if (const json::Member* legacy = zero->find("cpu_offload"); legacy && isTrue(legacy->value)) cpu = true;
    if (cpu) {
      Finding f = makeFinding(RuleId::IneffectiveSetting,
                              fmt::format("contiguous_gradients: false has no effect here: ZeRO-{} turn it back on "
                                          "while the optimizer is offloaded to the CPU.",
                                          *stage),
                              cg->keyRange);
      f.tags.push_back(Tag::Unnecessary);
      if (z.offloadOptimizer) f.related.push_back({"", z.offloadOptimizer->keyRange, "the optimizer is offloaded here"});
      out.push_back(std::move(f));
    }
  }

  // ZeRO-1 ignored both flags from 0.4.4 until 0.13.0.
  if (stage == 1 && versionAtLeast(ctx, "0.4.4") && versionBelow(ctx, "0.13.0")) {
    for (const json::Member* flag : {z.overlapComm.member, z.contiguousGradients.member}) {
      if (!flag || !isTrue(flag->value)) continue;
      Finding f = makeFinding(RuleId::IneffectiveSetting, Severity::Information,
                              fmt::format("{}: true has no effect with ZeRO stage 1 on {}: stage 1 forced it off from "
                                          "0.4.4 until 0.13.0.",
                                          flag->key, targetLabel(ctx)),
                              flag->keyRange);
      f.tags.push_back(Tag::Unnecessary);
      out.push_back(std::move(f));
    }
  }

  // Accelerate (and HF Trainer through it) overwrite steps_per_print.
  const analysis::Launcher launcher = ctx.settings.launcher;
  if (const json::Member* spp = root.find("steps_per_print"); spp && analysis::hfFillsAuto(launcher)) {
    // A hint: harmless, and worth seeing only when looking at that key.
    Finding f = makeFinding(RuleId::IneffectiveSetting, Severity::Hint,
                            launcher == analysis::Launcher::Accelerate
                                ? "Accelerate sets steps_per_print to infinity to keep DeepSpeed quiet, so this value "
                                  "is not used."
                                : "HF Trainer passes the config through Accelerate's DeepSpeed plugin (current "
                                  "transformers releases), which sets steps_per_print to infinity, so this value is "
                                  "not used.",
                            spp->keyRange);
    f.tags.push_back(Tag::Unnecessary);
    out.push_back(std::move(f));
  }
}

void checkConflictingSpellings(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Node& root = *ctx.model.root;
  if (const json::Member* bf16 = root.find("bf16"))
    if (const json::Member* old = root.find("bfloat16")) {
      Finding f = makeFinding(RuleId::ConflictingSpellings,
                              "\"bfloat16\" is the old name of \"bf16\"; with both present DeepSpeed reads \"bf16\" "
                              "and ignores this section entirely.",
                              old->keyRange);
      f.tags.push_back(Tag::Unnecessary);
      f.related.push_back({"", bf16->keyRange, "the section DeepSpeed reads"});
      f.fixes.push_back({"Remove the \"bfloat16\" section", {removeMember(ctx.text, root, *old)}, true, true});
      out.push_back(std::move(f));
    }

  // Two accepted names of one field in the same object (stage3_prefetch_bucket_size / prefetch_bucket_size).
  forEachMember(root, [&](const Visit& v) {
    if (v.member.value.kind != json::Kind::Object) return catalog::findKey(v.path) != nullptr;
    std::map<const catalog::KeyInfo*, const json::Member*> seen;
    for (const json::Member& m : v.member.value.members()) {
      const catalog::KeyInfo* key = catalog::findKey(v.path + "." + std::string(m.key));
      if (!key || key->aliases.empty()) continue;
      auto [it, inserted] = seen.emplace(key, &m);
      if (inserted || it->second->key == m.key) continue;  // the same spelling twice is duplicate-key
      Finding f = makeFinding(RuleId::ConflictingSpellings,
                              fmt::format("\"{}\" and \"{}\" are two names of the same DeepSpeed field; which value "
                                          "DeepSpeed keeps when both are given was not verified. Keep one.",
                                          m.key, it->second->key),
                              m.keyRange);
      f.related.push_back({"", it->second->keyRange, "the other spelling"});
      out.push_back(std::move(f));
    }
    return true;
  });
}

}  // namespace dsls::config

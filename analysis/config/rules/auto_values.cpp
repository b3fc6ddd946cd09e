// auto-not-filled and auto-outside-hf: "auto" is a Hugging Face convention. HF Trainer
// and Accelerate replace it for a fixed list of keys; DeepSpeed itself drops "auto"
// in strict sections (the key takes its default) and keeps the string in lenient
// ones (it fails, or means true, when used).
#include "analysis/config/rules/rule_support.h"
#include "analysis/config/setting_names.h"

#include <fmt/format.h>

namespace dsls::config {

using catalog::AutoFill;
using namespace rules;

namespace {

bool isBatchKey(std::string_view path) {
  return path == "train_batch_size" || path == "train_micro_batch_size_per_gpu" || path == "gradient_accumulation_steps";
}

// "auto" the DeepSpeed autotuner itself resolves.
bool tunedByAutotuner(const RuleContext& ctx, std::string_view path) {
  return isBatchKey(path) && autotuningEnabled(*ctx.model.root);
}

struct AutoValue {
  const json::Member* member;
  const catalog::KeyInfo* key;
  std::string parentPath;
};

std::vector<AutoValue> autoValues(const RuleContext& ctx) {
  std::vector<AutoValue> found;
  if (!ctx.model.root) return found;
  forEachMember(*ctx.model.root, [&](const Visit& v) {
    const catalog::KeyInfo* key = catalog::findKey(v.path);
    if (!key) return false;
    if (isAuto(v.member.value) && key->autoFill != AutoFill::DeepSpeedNative && !tunedByAutotuner(ctx, key->path))
      found.push_back({&v.member, key, v.parentPath});
    return true;
  });
  return found;
}

std::string defaultText(const RuleContext& ctx, const catalog::KeyInfo& key) {
  if (ctx.model.deepspeed) return std::string(catalog::defaultAt(key, *ctx.model.deepspeed));
  return std::string(key.defaultValue);
}

// What DeepSpeed does with an "auto" nobody replaced, and how bad that is.
struct Outcome {
  Severity severity;
  std::string text;
};

Outcome whatDeepSpeedDoes(const RuleContext& ctx, const AutoValue& a) {
  Regime regime = regimeOf(a.parentPath, ctx.model.deepspeed);
  std::string def = defaultText(ctx, *a.key);
  std::string dropped = def.empty() ? "DeepSpeed drops \"auto\" there and the key takes its default"
                                    : fmt::format("DeepSpeed drops \"auto\" there and uses the default {}", def);
  std::string kept;
  if (a.key->types & catalog::Bool)
    kept = "DeepSpeed keeps the string, and a non-empty string counts as true";
  else if (a.key->types & (catalog::Number | catalog::Integer))
    kept = "DeepSpeed keeps the string, and the first comparison or arithmetic with it fails (TypeError)";
  else
    kept = "DeepSpeed keeps the string \"auto\" as the value";
  switch (regime) {
    case Regime::Strict: return {Severity::Warning, dropped};
    case Regime::Lenient: return {Severity::Error, kept};
    case Regime::Depends:
      return {Severity::Error,
              fmt::format("from DeepSpeed {} {}; before that {}", strictSinceOf(a.parentPath), dropped, kept)};
  }
  return {Severity::Warning, dropped};
}

void addDefaultFix(const RuleContext& ctx, Finding& f, const AutoValue& a, bool safe) {
  std::string def = defaultText(ctx, *a.key);
  if (def.empty() || def == "null") return;
  f.fixes.push_back({fmt::format("Replace \"auto\" with {}", def), {replaceValue(*a.member, def)}, true, safe});
}

std::string fillerNames(AutoFill fill) {
  switch (fill) {
    case AutoFill::HfTrainer: return "HF Trainer";
    case AutoFill::Accelerate: return "Accelerate";
    case AutoFill::HfAndAccelerate: return "HF Trainer and Accelerate";
    default: return "";
  }
}

void stageAuto(const RuleContext& ctx, const AutoValue& a, std::vector<Finding>& out) {
  const analysis::Launcher launcher = ctx.settings.launcher;
  if (launcher == analysis::Launcher::Accelerate) return;
  // With the launcher unknown, Accelerate may fill it: a note rather than a warning.
  const bool launcherKnown = launcher == analysis::Launcher::DeepSpeed || launcher == analysis::Launcher::HfTrainer;
  Finding f = launcherKnown ? makeFinding(RuleId::AutoNotFilled, "", a.member->value.range)
                            : makeFinding(RuleId::AutoNotFilled, Severity::Information, "", a.member->value.range);
  if (launcher == analysis::Launcher::DeepSpeed) {
    f.message = "\"stage\": \"auto\" is filled only by Accelerate: plain DeepSpeed drops it and runs ZeRO stage 0 "
                "(ZeRO off), with no error. Write the stage you want.";
  } else if (launcher == analysis::Launcher::HfTrainer) {
    f.message = "\"stage\": \"auto\" is not filled by HF Trainer's own filler. Current transformers releases pass the "
                "file through Accelerate's DeepSpeed plugin, which fills it from ACCELERATE_DEEPSPEED_ZERO_STAGE (2 "
                "when unset); older ones leave it to DeepSpeed, which drops it and runs stage 0. Write the stage you "
                "want.";
  } else {
    f.message = "\"stage\": \"auto\" is filled only by Accelerate (from its config or ACCELERATE_DEEPSPEED_ZERO_STAGE, "
                "2 when unset); plain DeepSpeed drops it and runs stage 0 (ZeRO off). Write the stage you want unless "
                "this file is only used through Accelerate.";
  }
  out.push_back(std::move(f));
}

}  // namespace

void checkAutoNotFilled(const RuleContext& ctx, std::vector<Finding>& out) {
  for (const AutoValue& a : autoValues(ctx)) {
    if (a.key->path == "zero_optimization.stage") {
      stageAuto(ctx, a, out);
      continue;
    }
    if (a.key->autoFill != AutoFill::None) continue;
    Outcome o = whatDeepSpeedDoes(ctx, a);
    Finding f = makeFinding(RuleId::AutoNotFilled, o.severity,
                            fmt::format("Neither HF Trainer nor Accelerate fills \"auto\" for {}: {}.", a.key->path,
                                        o.text),
                            a.member->value.range);
    // Never applied by itself: some loaders (inference engines, frameworks) fill "auto" of their own.
    addDefaultFix(ctx, f, a, false);
    out.push_back(std::move(f));
  }
}

void checkAutoOutsideHf(const RuleContext& ctx, std::vector<Finding>& out) {
  const analysis::Launcher launcher = ctx.settings.launcher;
  if (analysis::hfFillsAuto(launcher)) return;
  std::vector<AutoValue> filled;
  for (const AutoValue& a : autoValues(ctx))
    if (a.key->autoFill != AutoFill::None && a.key->path != "zero_optimization.stage") filled.push_back(a);
  if (filled.empty()) return;

  if (launcher == analysis::Launcher::DeepSpeed) {
    for (const AutoValue& a : filled) {
      Outcome o = whatDeepSpeedDoes(ctx, a);
      const std::string& source = ctx.settings.launcherSource;
      Finding f = makeFinding(RuleId::AutoOutsideHf, o.severity,
                              fmt::format("{} is \"auto\", which only {} {}; launched with plain DeepSpeed{}, {}.",
                                          a.key->path, fillerNames(a.key->autoFill),
                                          a.key->autoFill == AutoFill::HfAndAccelerate ? "fill" : "fills",
                                          source.empty() ? "" : " (" + source + ")", o.text),
                              a.member->value.range);
      addDefaultFix(ctx, f, a, false);
      out.push_back(std::move(f));
    }
    return;
  }
  // Launcher unknown: one note for the whole file rather than one per value.
  const AutoValue& first = filled.front();
  const AutoValue* lenient = nullptr;
  for (const AutoValue& a : filled)
    if (!lenient && regimeOf(a.parentPath, ctx.model.deepspeed) == Regime::Lenient) lenient = &a;
  std::string consequence =
      lenient ? fmt::format("strict sections drop them (defaults apply) and lenient keys such as {} keep the string "
                            "and fail or misbehave",
                            lenient->key->path)
              : "DeepSpeed drops them and the keys take their defaults";
  // A hint, shown in the editor and by --min-severity hint: most such files are read by HF Trainer or
  // Accelerate, and nothing is wrong with them then.
  Finding f = makeFinding(
      RuleId::AutoOutsideHf, Severity::Hint,
      fmt::format("This file has {} \"auto\" value{} that HF Trainer or Accelerate fill at launch. Launched with plain "
                  "DeepSpeed they are not filled: {}. {} to check them one by one.",
                  filled.size(), filled.size() == 1 ? "" : "s", consequence, howToSetLauncher(ctx.settings)),
      first.member->value.range);
  for (std::size_t i = 1; i < filled.size() && i <= 32; ++i)
    f.related.push_back({"", filled[i].member->value.range, std::string(filled[i].key->path) + " is \"auto\""});
  out.push_back(std::move(f));
}

}  // namespace dsls::config

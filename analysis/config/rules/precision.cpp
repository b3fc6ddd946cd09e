// Precision rules: fp16 and bf16 (or Apex AMP) enabled together, fp16 loss-scaling
// options copied into bf16, the bf16 gradient-overflow default of 0.17.1-0.19.2, and
// the prerequisites of the 16-bit master-weight options.
#include "analysis/config/rules/rule_support.h"
#include "analysis/config/rules/grad_accum_dtype.h"

#include <fmt/format.h>

namespace dsls::config {

using namespace rules;

namespace {

const json::Member* enabledOf(const json::Member* section) {
  const json::Node* o = objectOf(section);
  return o ? o->find("enabled") : nullptr;
}

bool enabled(const json::Member* section) {
  const json::Member* e = enabledOf(section);
  return e && isTrue(e->value);
}


}  // namespace

void checkPrecisionConflict(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Node& root = *ctx.model.root;
  const json::Member* fp16 = root.find("fp16");
  const json::Member* bf16 = effectiveBf16(root);
  const json::Member* amp = root.find("amp");
  bool fp16On = enabled(fp16), bf16On = enabled(bf16);

  if (fp16On && bf16On) {
    const json::Member* fe = enabledOf(fp16);
    const json::Member* be = enabledOf(bf16);
    Finding f = makeFinding(RuleId::PrecisionConflict,
                            fmt::format("fp16 and {} are both enabled: DeepSpeed asserts \"bfloat16 and fp16 modes "
                                        "cannot be simultaneously enabled\" (Accelerate refuses the pair as well). "
                                        "Enable one of them.",
                                        bf16->key),
                            be->value.range);
    f.related.push_back({"", fe->value.range, "fp16 is enabled here"});
    f.fixes.push_back({"Disable fp16", {replaceValue(*fe, "false")}, false, false});
    f.fixes.push_back({fmt::format("Disable {}", bf16->key), {replaceValue(*be, "false")}, false, false});
    out.push_back(std::move(f));
  }

  std::optional<int> stage = knownStage(ctx);
  if (enabled(amp) && (fp16On || bf16On) && (!stage || *stage == 0)) {
    const json::Member* mode = fp16On ? fp16 : bf16;
    Finding f = makeFinding(RuleId::PrecisionConflict,
                            fmt::format("Apex AMP (amp.enabled) and {} are both enabled: DeepSpeed asserts \"Cannot "
                                        "enable both amp with (legacy) fp16 mode\". Use one of them.",
                                        mode->key),
                            enabledOf(amp)->value.range);
    f.related.push_back({"", enabledOf(mode)->value.range, fmt::format("{} is enabled here", mode->key)});
    out.push_back(std::move(f));
  }

  // data_types.param_dtype must agree with the enabled mode (recent releases assert it).
  const json::Member* paramDtype = memberAt(&root, "data_types.param_dtype");
  if (paramDtype && paramDtype->value.kind == json::Kind::String) {
    const json::Member* fe = enabledOf(fp16);
    const json::Member* be = enabledOf(bf16);
    bool unknownMode = (fe && isAuto(fe->value)) || (be && isAuto(be->value));
    std::string requested = normalizedDtype(paramDtype->value.string);
    std::string mode = fp16On ? "fp16" : bf16On ? "bf16" : "fp32";
    if (!unknownMode && !requested.empty() && requested != mode && !(fp16On && bf16On)) {
      Finding f = makeFinding(RuleId::PrecisionConflict,
                              fmt::format("data_types.param_dtype is {} but the enabled precision mode is {}: DeepSpeed "
                                          "releases that read param_dtype assert that the two match. Enable the "
                                          "matching fp16/bf16 section or drop param_dtype.",
                                          quote(paramDtype->value.string), mode),
                              paramDtype->value.range);
      if (const json::Member* e = fp16On ? fe : bf16On ? be : nullptr)
        f.related.push_back({"", e->value.range, fmt::format("{} is enabled here", mode)});
      out.push_back(std::move(f));
    }
  }
  checkGradAccumDtype(ctx, out);
}

void checkFp16OptionsInBf16(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Node& root = *ctx.model.root;
  const json::Member* section = effectiveBf16(root);  // "bfloat16" next to "bf16" is ignored as a whole
  const json::Node* bf16 = objectOf(section);
  if (!bf16) return;
  bool old = versionBelow(ctx, "0.17.1");
  for (const json::Member& m : bf16->members()) {
    if (catalog::findKey("bf16." + std::string(m.key)) || !catalog::findKey("fp16." + std::string(m.key))) continue;
    Finding f = makeFinding(RuleId::Fp16OptionInBf16, old ? Severity::Hint : Severity::Error, "", m.keyRange);
    if (old) {
      f.message = fmt::format("\"{}\" is an fp16 option; {} ignores it inside {} (bf16 needs no loss scaling), and "
                              "DeepSpeed 0.17.1 and later reject it.",
                              m.key, targetLabel(ctx), section->key);
      f.tags.push_back(Tag::Unnecessary);
    } else {
      std::string who = ctx.model.deepspeed ? targetLabel(ctx) + " rejects it"
                                            : "DeepSpeed 0.17.1 and later reject it";
      f.message = fmt::format("\"{}\" is an fp16 option, not a {} one: {} (ValidationError \"Extra inputs are not "
                              "permitted\"){}. bf16 needs no loss scaling.",
                              m.key, section->key, who, ctx.model.deepspeed ? "" : "; older releases ignore it");
    }
    // Removing it never changes behaviour: no release uses it inside bf16.
    f.fixes.push_back({fmt::format("Remove \"{}\"", m.key), {removeMember(ctx.text, *bf16, m)}, true, true});
    out.push_back(std::move(f));
  }
}

void checkBf16OverflowUnchecked(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Member* section = effectiveBf16(*ctx.model.root);
  const json::Node* bf16 = objectOf(section);
  // "auto" is on when the launch command HF Trainer runs under says --bf16.
  const bool filledOn = enabledOf(section) && isAuto(enabledOf(section)->value) &&
                        ctx.settings.launcher == analysis::Launcher::HfTrainer && ctx.settings.launchBf16 == true;
  if (!bf16 || !(enabled(section) || filledOn) || bf16->find("check_grad_overflow")) return;
  if (!versionAtLeast(ctx, "0.17.1") || !versionBelow(ctx, "0.19.3")) return;
  // Only the ZeRO-1/2 optimizer reads it (engine.py _configure_zero_optimizer): not ZeRO-0 or 3, nor
  // the BF16_Optimizer that ZeRO-1 with fp32 gradient accumulation gets.
  const std::optional<int> stage = knownStage(ctx);
  if (!stage || (*stage != 1 && *stage != 2) || ctx.model.bf16Optimizer == Bf16OptimizerUse::Yes) return;
  Finding f = makeFinding(RuleId::Bf16OverflowUnchecked,
                          fmt::format("{} defaults bf16.check_grad_overflow to false (0.17.1 to 0.19.2): a step whose "
                                      "gradients hold NaN or inf is applied instead of skipped and can ruin the "
                                      "weights for good. 0.19.3 turned the check on by default.{}",
                                      targetLabel(ctx),
                                      filledOn ? " HF Trainer fills bf16 \"auto\" in as true here (" +
                                                     ctx.settings.launcherSource + ", with bf16 on)."
                                               : ""),
                          enabledOf(section)->keyRange);
  f.fixes.push_back({"Set \"check_grad_overflow\": true",
                     insertMember(ctx.text, *bf16, "check_grad_overflow", "true"), true, false});
  out.push_back(std::move(f));
}

void checkMasterWeights(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Node& root = *ctx.model.root;
  std::optional<int> stage = knownStage(ctx);
  const ZeroModel& z = ctx.model.zero;

  if (const json::Member* m = memberAt(&root, "fp16.fp16_master_weights_and_grads"); m && isTrue(m->value)) {
    bool cpuOffload = false;
    if (const json::Node* off = objectOf(z.offloadOptimizer))
      if (const json::Member* d = off->find("device"); d && d->value.kind == json::Kind::String)
        cpuOffload = d->value.string == "cpu";
    if (const json::Node* zero = objectOf(z.section))
      if (const json::Member* legacy = zero->find("cpu_offload"); legacy && isTrue(legacy->value)) cpuOffload = true;
    if (stage && *stage == 0) {
      out.push_back(makeFinding(RuleId::MasterWeightsRequirements,
                                "fp16_master_weights_and_grads needs ZeRO stage 1, 2 or 3: DeepSpeed asserts "
                                "\"Fp16_master_weights_and_grads is only supported with ZeRO Stage 1, 2, or 3\".",
                                m->keyRange));
    } else if (stage && (*stage == 1 || *stage == 2) && !cpuOffload) {
      out.push_back(makeFinding(RuleId::MasterWeightsRequirements,
                                "fp16_master_weights_and_grads needs the optimizer offloaded to the CPU with "
                                "DeepSpeedCPUAdam, which keeps the optimizer states in fp32; without "
                                "zero_optimization.offload_optimizer.device \"cpu\" ZeRO-1/2 assert at start-up.",
                                m->keyRange));
    }
  }

  const json::Node* bf16 = objectOf(effectiveBf16(root));
  if (!bf16) return;
  const json::Member* master = bf16->find("bf16_master_weights_and_grads");
  if (const json::Member* states = bf16->find("bf16_optimizer_states"); states && isTrue(states->value)) {
    if (!master || !isTrue(master->value)) {
      Finding f = makeFinding(RuleId::MasterWeightsRequirements,
                              "bf16_optimizer_states requires bf16_master_weights_and_grads: true.", states->keyRange);
      if (master) {
        f.related.push_back({"", master->keyRange, "not true here"});
        f.fixes.push_back({"Set bf16_master_weights_and_grads to true", {replaceValue(*master, "true")}, true, false});
      } else {
        f.fixes.push_back({"Add \"bf16_master_weights_and_grads\": true",
                           insertMember(ctx.text, *bf16, "bf16_master_weights_and_grads", "true"), true, false});
      }
      out.push_back(std::move(f));
    }
  }
  if (master && isTrue(master->value) && stage && *stage == 0) {
    // What DeepSpeed does here was not verified: a warning, not an error.
    out.push_back(makeFinding(RuleId::MasterWeightsRequirements, Severity::Warning,
                              "bf16_master_weights_and_grads applies to the ZeRO optimizer (stages 1 to 3); with ZeRO "
                              "off it has no ZeRO optimizer to act on. What DeepSpeed does with it at stage 0 was not "
                              "verified.",
                              master->keyRange));
  }
}

}  // namespace dsls::config

// Optimizer and gradient-scaling rules: max_grad_norm inside optimizer.params, optimizer
// and scheduler names DeepSpeed cannot resolve, Apex AMP with ZeRO, Lamb with a static
// loss scale, and gradient pre-scaling with ZeRO-2/3 reduce-scatter.
#include "analysis/config/rules/rule_support.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace dsls::config {

using namespace rules;

namespace {

// torch.optim optimizer classes (PyTorch 2.x). DeepSpeed looks other names up there, case-sensitively.
constexpr std::array<std::string_view, 15> kTorchOptimizers = {
    "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "ASGD", "LBFGS",
    "NAdam", "RAdam", "RMSprop", "Rprop", "SGD", "SparseAdam", "Muon"};
// DeepSpeed's own schedulers (deepspeed/runtime/lr_schedules.py), matched case-sensitively.
constexpr std::array<std::string_view, 5> kDeepSpeedSchedulers = {"LRRangeTest", "OneCycle", "WarmupLR",
                                                                   "WarmupDecayLR", "WarmupCosineLR"};
// torch.optim.lr_scheduler classes (PyTorch 2.x).
constexpr std::array<std::string_view, 16> kTorchSchedulers = {
    "LRScheduler", "LambdaLR",         "MultiplicativeLR",  "StepLR",          "MultiStepLR",
    "ConstantLR",  "LinearLR",         "ExponentialLR",     "SequentialLR",    "CosineAnnealingLR",
    "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts", "OneCycleLR",
    "PolynomialLR"};

// The closest name (ignoring case, at most two edits, or the same letters in another case).
std::optional<std::string> closest(std::string_view name, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t bestDistance = name.size() <= 4 ? 2 : 3;
  for (const std::string& c : candidates) {
    std::size_t d = rules::editDistance(rules::lower(name), rules::lower(c));
    if (d < bestDistance) bestDistance = d, best = c;
  }
  return best;
}

std::vector<std::string> deepSpeedOptimizers() {
  std::vector<std::string> names;
  if (const catalog::KeyInfo* type = catalog::findKey("optimizer.type"))
    for (std::string_view v : type->allowed)
      if (v.size() >= 2) names.emplace_back(v.substr(1, v.size() - 2));
  return names;
}

const json::Member* typeMember(const json::Node& root, std::string_view section) {
  const json::Node* s = objectOf(root.find(section));
  if (!s) return nullptr;
  const json::Member* t = s->find("type");
  return t && t->value.kind == json::Kind::String ? t : nullptr;
}

// A capitalised name with no close known name may be a torch class newer than the lists here.
bool mayBeNewerTorchClass(const std::string& name, const std::optional<std::string>& closestKnown) {
  return !closestKnown && !name.empty() && std::isupper(static_cast<unsigned char>(name[0]));
}

// An unknown optimizer or scheduler `type`: an error, a warning when it may be a newer torch
// class, with the closest known name as the message's suggestion and the fix.
Finding unknownNameFinding(RuleId rule, const json::Member& type, std::string message,
                           const std::optional<std::string>& closestKnown, bool mayBeNewer) {
  if (closestKnown) message += fmt::format(" Did you mean \"{}\"?", *closestKnown);
  Finding f = makeFinding(rule, mayBeNewer ? Severity::Warning : Severity::Error, std::move(message), type.value.range);
  if (closestKnown) {
    f.fixes.push_back({fmt::format("Change to \"{}\"", *closestKnown), {replaceValue(type, quote(*closestKnown))},
                       true, false});
  }
  return f;
}

}  // namespace

void checkMaxGradNorm(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Node& root = *ctx.model.root;
  const json::Node* params = objectOf(memberAt(&root, "optimizer.params"));
  if (!params) return;
  const json::Member* m = params->find("max_grad_norm");
  if (!m) return;
  const json::Member* clipping = root.find("gradient_clipping");
  Finding f = makeFinding(RuleId::MaxGradNormInOptimizer,
                          "max_grad_norm is not an optimizer parameter in DeepSpeed: building the optimizer from this "
                          "section raises ValueError (\"'max_grad_norm' is not supported as an optimizer parameter, "
                          "please switch to using the deepspeed parameter 'gradient_clipping'\").",
                          m->keyRange);
  if (clipping) {
    f.related.push_back({"", clipping->keyRange, "gradient clipping is set here"});
    f.fixes.push_back({"Remove max_grad_norm (gradient_clipping is already set)", {removeMember(ctx.text, *params, *m)},
                       true, false});
  } else if (m->value.kind == json::Kind::Number) {
    analysis::Fix fix{"Move it to the top-level gradient_clipping", {removeMember(ctx.text, *params, *m)}, true, false};
    auto ins = insertMember(ctx.text, root, "gradient_clipping", sourceOf(ctx.text, m->value));
    fix.edits.insert(fix.edits.end(), ins.begin(), ins.end());
    f.fixes.push_back(std::move(fix));
  }
  out.push_back(std::move(f));
}

void checkUnknownOptimizer(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Member* type = typeMember(*ctx.model.root, "optimizer");
  if (!type || isAuto(type->value)) return;
  const std::string name(type->value.string);
  std::vector<std::string> native = deepSpeedOptimizers();
  for (const std::string& n : native)
    if (rules::lower(n) == rules::lower(name)) {
      // 1-bit optimizers were removed on master after 0.19.5.
      std::string l = rules::lower(name);
      if ((l == "onebitadam" || l == "zerooneadam" || l == "onebitlamb") && versionAtLeast(ctx, "0.19.6"))
        out.push_back(makeFinding(RuleId::UnknownOptimizer, Severity::Warning,
                                  fmt::format("{} was removed on DeepSpeed master after 0.19.5; {} may no longer "
                                              "provide it.",
                                              name, targetLabel(ctx)),
                                  type->value.range));
      return;
    }
  if (std::find(kTorchOptimizers.begin(), kTorchOptimizers.end(), name) != kTorchOptimizers.end()) return;

  std::vector<std::string> candidates = native;
  candidates.insert(candidates.end(), kTorchOptimizers.begin(), kTorchOptimizers.end());
  std::optional<std::string> best = closest(name, candidates);
  // DeepSpeed's implementation classes are not accepted by name; the plain name selects them.
  for (auto [impl, plain] : {std::pair{"fusedadam", "Adam"}, std::pair{"deepspeedcpuadam", "Adam"},
                             std::pair{"cpuadam", "Adam"}, std::pair{"fusedlamb", "Lamb"},
                             std::pair{"fusedlion", "Lion"}, std::pair{"deepspeedcpulion", "Lion"},
                             std::pair{"deepspeedcpuadagrad", "Adagrad"}})
    if (rules::lower(name) == impl) best = plain;
  bool newer = mayBeNewerTorchClass(name, best);
  out.push_back(unknownNameFinding(
      RuleId::UnknownOptimizer, *type,
      fmt::format("\"{}\" is neither a DeepSpeed optimizer (Adam, AdamW, Adagrad, Lamb, Lion, Muon, ...; any case) "
                  "nor a torch.optim class{} (exact case): DeepSpeed asserts \"{} is not a supported DeepSpeed "
                  "Optimizer\" when it builds the optimizer.",
                  name, newer ? " that dsls knows" : "", name),
      best, newer));
}

void checkUnknownScheduler(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Member* type = typeMember(*ctx.model.root, "scheduler");
  if (!type || isAuto(type->value)) return;
  const std::string name(type->value.string);
  auto in = [&](const auto& list) { return std::find(list.begin(), list.end(), name) != list.end(); };
  if (in(kDeepSpeedSchedulers) || in(kTorchSchedulers)) return;
  std::vector<std::string> candidates(kDeepSpeedSchedulers.begin(), kDeepSpeedSchedulers.end());
  candidates.insert(candidates.end(), kTorchSchedulers.begin(), kTorchSchedulers.end());
  std::optional<std::string> best = closest(name, candidates);
  bool newer = mayBeNewerTorchClass(name, best);
  out.push_back(unknownNameFinding(
      RuleId::UnknownScheduler, *type,
      fmt::format("\"{}\" is neither a DeepSpeed scheduler (LRRangeTest, OneCycle, WarmupLR, WarmupDecayLR, "
                  "WarmupCosineLR) nor a torch.optim.lr_scheduler class{} (both matched with exact case): DeepSpeed "
                  "asserts \"DeepSpeed does not recognize LR scheduler {}\".",
                  name, newer ? " that dsls knows" : "", name),
      best, newer));
}

void checkAmpWithZero(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Member* enabled = memberAt(ctx.model.root, "amp.enabled");
  std::optional<int> stage = knownStage(ctx);
  if (!enabled || !isTrue(enabled->value) || !stage || *stage == 0) return;
  Finding f = makeFinding(RuleId::AmpWithZero,
                          fmt::format("Apex AMP cannot be combined with ZeRO (stage {} here): DeepSpeed asserts \"Amp "
                                      "and ZeRO are not currently compatible\". Use the fp16 or bf16 section instead.",
                                      *stage),
                          enabled->value.range);
  if (ctx.model.zero.stage.member)
    f.related.push_back({"", ctx.model.zero.stage.member->keyRange, "ZeRO is enabled here"});
  out.push_back(std::move(f));
}

void checkLambLossScale(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Member* type = typeMember(*ctx.model.root, "optimizer");
  if (!type) return;
  std::string l = rules::lower(type->value.string);
  if (l != "lamb" && l != "onebitlamb") return;
  const json::Member* enabled = memberAt(ctx.model.root, "fp16.enabled");
  const json::Member* scale = memberAt(ctx.model.root, "fp16.loss_scale");
  if (!enabled || !isTrue(enabled->value) || !scale || scale->value.kind != json::Kind::Number ||
      scale->value.number == 0)
    return;
  Finding f = makeFinding(RuleId::LambStaticLossScale,
                          fmt::format("{} needs dynamic loss scaling, but fp16.loss_scale is {} (static): DeepSpeed "
                                      "asserts \"DeepSpeed {} optimizer requires dynamic loss scaling\". Set "
                                      "loss_scale to 0.",
                                      type->value.string, sourceOf(ctx.text, scale->value), l),
                          scale->value.range);
  f.related.push_back({"", type->value.range, "the optimizer is chosen here"});
  f.fixes.push_back({"Use dynamic loss scaling (loss_scale 0)", {replaceValue(*scale, "0")}, true, false});
  out.push_back(std::move(f));
}

void checkPrescaleWithReduceScatter(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Node& root = *ctx.model.root;
  std::optional<int> stage = knownStage(ctx);
  if (!stage || *stage == 0) return;
  const json::Node* zero = objectOf(ctx.model.zero.section);
  bool reduceScatter = true;  // the default; "auto" is dropped to it
  if (zero)
    if (const json::Member* rs = zero->find("reduce_scatter"); rs && isFalse(rs->value)) reduceScatter = false;
  if (!reduceScatter) return;

  const json::Member* prescale = root.find("prescale_gradients");
  const json::Member* predivide = root.find("gradient_predivide_factor");
  std::vector<std::pair<const json::Member*, std::string>> culprits;
  if (prescale && isTrue(prescale->value)) culprits.push_back({prescale, "pre-scale gradients"});
  if (predivide && predivide->value.kind == json::Kind::Number && predivide->value.number != 1.0)
    culprits.push_back({predivide, "gradient_predivide_factor != 1.0"});
  for (const auto& [m, what] : culprits) {
    bool certain = *stage >= 2;
    Finding f = makeFinding(
        RuleId::PrescaleWithReduceScatter, certain ? Severity::Error : Severity::Information,
        certain ? fmt::format("{} is not supported with ZeRO-{} and reduce_scatter (on by default): DeepSpeed asserts "
                              "\"{} is not yet supported with ZeRO-{} with reduce scatter enabled\". Turn it off, or "
                              "set zero_optimization.reduce_scatter to false.",
                              m->key, *stage, what, *stage)
                : fmt::format("{} with ZeRO-1 and reduce_scatter: current releases accept it, but earlier ones also "
                              "asserted for stage 1 (\"{} is not yet supported ... with reduce scatter enabled\"); the "
                              "release that relaxed it was not verified.",
                              m->key, what),
        m->value.range);
    if (certain) {
      if (m == prescale)
        f.fixes.push_back({"Set prescale_gradients to false", {replaceValue(*m, "false")}, true, false});
      else
        f.fixes.push_back({"Set gradient_predivide_factor to 1.0", {replaceValue(*m, "1.0")}, true, false});
    }
    out.push_back(std::move(f));
  }
}

}  // namespace dsls::config

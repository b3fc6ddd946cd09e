// The gradient-accumulation dtype check of DeepSpeedEngine._do_optimizer_sanity_check, made at
// deepspeed.initialize: the first row of grad_accum_support.inc that matches decides.
#include "analysis/config/rules/grad_accum_dtype.h"

#include "analysis/config/constraints.h"
#include "analysis/config/grad_accum_support.h"

#include <fmt/format.h>

namespace dsls::config {

using namespace rules;

namespace {

struct Precision {
  std::string model, accum;
  const json::Member* accumMember = nullptr;  // data_types.grad_accum_dtype as written
  const json::Member* modeMember = nullptr;   // the enabled fp16/bf16 section
};

// The "enabled" literal of a section: true, false, or unknown ("auto").
std::optional<bool> enabledLiteral(const json::Member* section) {
  const json::Node* o = objectOf(section);
  const json::Member* e = o ? o->find("enabled") : nullptr;
  if (!e) return false;
  if (isTrue(e->value)) return true;
  if (isFalse(e->value)) return false;
  return std::nullopt;
}

// The accumulation dtype DeepSpeed uses when grad_accum_dtype is unset (engine.get_data_types).
std::string defaultAccum(const RuleContext& ctx, const std::string& model, int stage) {
  if (model == "bf16" && stage == 0 && versionBelow(ctx, "0.17.6")) return "fp32";
  return model;
}

std::optional<Precision> precisionOf(const RuleContext& ctx, int stage) {
  const json::Node& root = *ctx.model.root;
  const json::Member* fp16 = root.find("fp16");
  const json::Member* bf16 = effectiveBf16(root);
  auto fp16On = enabledLiteral(fp16), bf16On = enabledLiteral(bf16);
  if (!fp16On || !bf16On) return std::nullopt;  // "auto": filled at launch
  Precision p;
  p.model = *fp16On ? "fp16" : *bf16On ? "bf16" : "fp32";
  p.modeMember = *fp16On ? fp16 : *bf16On ? bf16 : nullptr;
  p.accumMember = memberAt(&root, "data_types.grad_accum_dtype");
  if (p.accumMember && p.accumMember->value.kind == json::Kind::String) {
    p.accum = normalizedDtype(p.accumMember->value.string);
    if (p.accum.empty()) return std::nullopt;  // invalid-value reports the spelling
  } else if (!p.accumMember || p.accumMember->value.kind == json::Kind::Null) {
    p.accum = defaultAccum(ctx, p.model, stage);
  } else {
    return std::nullopt;
  }
  return p;
}

bool holds(const RuleContext& ctx, const GradAccumRow& row) {
  ValueConstraint range{};
  range.since = row.since, range.until = row.until;
  if (ctx.model.deepspeed) return holdsIn(range, *ctx.model.deepspeed);
  return row.until.empty();  // an unknown release is read as the newest
}

bool matches(const GradAccumRow& row, const Precision& p, int stage) {
  bool zeroMatches = row.zero == ZeroUse::Off ? stage == 0 : row.zero == ZeroUse::On ? stage > 0 : stage == 1;
  if (!zeroMatches) return false;
  if (row.model != "*" && row.model != p.model) return false;
  if (row.accum == "!=") return p.accum != p.model;
  return row.accum == "*" || row.accum == p.accum;
}

std::string rangeWords(const GradAccumRow& row) {
  ValueConstraint range{};
  range.since = row.since, range.until = row.until;
  return releaseRange(range);
}

}  // namespace

void checkGradAccumDtype(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  if (const json::Member* amp = ctx.model.root->find("amp"); amp && enabledLiteral(amp).value_or(true)) return;
  std::optional<int> stage = knownStage(ctx);
  if (!stage) return;
  auto p = precisionOf(ctx, *stage);
  if (!p) return;
  for (const GradAccumRow& row : gradAccumRows()) {
    if (!holds(ctx, row) || !matches(row, *p, *stage)) continue;
    if (row.verdict == AccumVerdict::Accept) return;
    const json::Member* at = p->accumMember ? p->accumMember : p->modeMember;
    if (!at) return;
    std::string zero = *stage == 0 ? "without ZeRO" : fmt::format("at ZeRO stage {}", *stage);
    std::string who = ctx.model.deepspeed ? fmt::format("DeepSpeed {}", ctx.model.deepspeed->str()) : "DeepSpeed";
    Finding f = makeFinding(RuleId::PrecisionConflict,
                            fmt::format("{} model weights with {} gradient accumulation {}: {} raises \"{}\" at "
                                        "deepspeed.initialize (a check made {}){}.",
                                        p->model, p->accum, zero, who, row.deepspeed, rangeWords(row),
                                        row.pipelineExempt ? "; a PipelineModule model is exempt" : ""),
                            at->value.range);
    if (p->accumMember && p->modeMember && at != p->modeMember)
      f.related.push_back({"", p->modeMember->keyRange, fmt::format("{} is enabled here", p->model)});
    out.push_back(std::move(f));
    return;
  }
}

}  // namespace dsls::config

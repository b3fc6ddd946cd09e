// fp16 loss scaling: overflow skips and a loss scale stuck at its minimum. These handlers only
// observe: what a line shows is returned, and applyObserved takes it into the state.
#include "analysis/logs/fingerprints/fingerprint_handlers.h"

namespace dsls::logs::detail {
namespace {

Observed observeOverflow(const HitView& hit) {
  Observed o;
  o.failure = true;
  o.lossScale.overflowLine = true;
  o.add(FailureId::Fp16OverflowSkips, false);
  const auto attempted = toDouble(hit.group("attempted"));
  o.lossScale.reduced = toDouble(hit.group("reduced").empty() ? hit.group("apex_reduced") : hit.group("reduced"));
  const auto& reduced = o.lossScale.reduced;
  // Below 1 the scale shrinks the gradients instead of protecting them: the scaler has nothing left.
  if (reduced && (*reduced < 1.0 || (attempted && (*reduced == 1.0 || *reduced >= *attempted)))) {
    o.lossScale.floorHit = true;
    o.add(FailureId::Fp16LossScaleFloor, false).options.tier = Tier::Numeric;
  }
  return o;
}

// Megatron stops the run on the rank whose own gradient norm is NaN: the rank is in the text.
Observed observeLocalGradNormNan(const HitView& hit) {
  Observed o;
  o.failure = true;
  Observed::Finding& f = o.add(FailureId::NanGradNorm);
  f.options.tier = Tier::Primary;
  f.options.severity = analysis::Severity::Error;
  if (const long long rank = toInt(hit.group("rank"), -1); rank >= 0) f.textRank = static_cast<int>(rank);
  f.details[0] = "Megatron's check found a NaN in this rank's own gradient norm, before the ranks' norms are combined.";
  f.detailOnFirst = true;
  return o;
}

Observed observeLossScaleMin(const HitView&) {
  Observed o;
  o.failure = true;
  Observed::Finding& floor = o.add(FailureId::Fp16LossScaleFloor, false);
  floor.options.tier = Tier::Primary;
  floor.details[0] = "DeepSpeed stopped the run: the loss scale was already at its minimum.";
  return o;
}

}  // namespace

DSLS_OBSERVING_HANDLER(Overflow) DSLS_OBSERVING_HANDLER(LossScaleMin)

DSLS_OBSERVING_HANDLER(LocalGradNormNan)

}  // namespace dsls::logs::detail

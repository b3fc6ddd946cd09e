// fp16 loss scaling: overflow skips and a loss scale stuck at its minimum.
#include "analysis/logs/fingerprints/fingerprint_handlers.h"

namespace dsls::logs::detail {

bool onOverflow(const Hit& hit) {
  NumericsState& n = hit.s.numerics;
  ++n.overflowLines;
  const Occurrence occ = occurrenceOf(hit.c, false);
  record(hit.s, FailureId::Fp16OverflowSkips, occ);
  const auto attempted = toDouble(hit.group("attempted"));
  const auto reduced = toDouble(hit.group("reduced"));
  if (reduced && (!n.minScale || *reduced < *n.minScale)) n.minScale = reduced;
  if (attempted && reduced && (*reduced <= 1.0 || *reduced >= *attempted)) {
    ++n.floorHits;
    RecordOptions o;
    o.tier = Tier::Numeric;
    record(hit.s, FailureId::Fp16LossScaleFloor, occ, o);
  }
  return true;
}

bool onLossScaleMin(const Hit& hit) {
  RecordOptions o;
  o.tier = Tier::Primary;
  Accumulator* a = record(hit.s, FailureId::Fp16LossScaleFloor, occurrenceOf(hit.c, false), o);
  addDetail(a, "DeepSpeed stopped the run: the loss scale was already at its minimum.");
  return true;
}

}  // namespace dsls::logs::detail

// The one place where what an observing handler saw is written into the analyser's state.
#include <stdexcept>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"

namespace dsls::logs::detail {

Observed::Finding& Observed::add(FailureId id, bool useLineRank) {
  if (findingCount == findings.size()) throw std::logic_error("a match observed more findings than Observed holds");
  Finding& f = findings[findingCount++];
  f.id = id;
  f.useLineRank = useLineRank;
  return f;
}

namespace {

void applyLossScale(NumericsState& n, const Observed::LossScale& o) {
  if (o.overflowLine) ++n.overflowLines;
  if (o.reduced && (!n.minScale || *o.reduced < *n.minScale)) n.minScale = o.reduced;
  if (o.floorHit) ++n.floorHits;
}

}  // namespace

bool applyObserved(State& s, const LineContext& c, const Observed& o) {
  applyLossScale(s.numerics, o.lossScale);
  StreamState& stream = s.streams[c.stream];
  if (o.hfMismatchLines) stream.hfMismatchLinesLeft = *o.hfMismatchLines;
  if (o.pydanticHeader) {
    stream.pydanticModel = o.pydanticHeader->model;
    stream.pydanticLinesLeft = o.pydanticHeader->lines;
  }
  for (std::size_t i = 0; i < o.findingCount; ++i) {
    const Observed::Finding& f = o.findings[i];
    Accumulator* a = record(s, f.id, occurrenceOf(c, f.useLineRank), f.options);
    if (!f.configKey.empty()) addConfigKey(a, f.configKey);
    if (a && (!f.detailOnFirst || a->total == 1))
      for (const std::string& detail : f.details) addDetail(a, detail);
  }
  return o.failure;
}

bool applyObserved(const Hit& hit, Observed (*observe)(const HitView&)) {
  return applyObserved(hit.s, hit.c, observe(HitView(hit)));
}

}  // namespace dsls::logs::detail

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

// Which host runs which ranks: the global mapping is kept, capped; a local one gives the world
// size when none is known (and the cap is not reached).
void applyHostRanks(RunFacts& f, const Observed::Facts& o) {
  if (o.hostRanks.empty() || f.hostRanks.size() >= limits::kHostRankEntries) return;
  if (o.globalHostRanks) {
    for (const auto& [host, ranks] : o.hostRanks) {
      if (f.hostRanks.size() >= limits::kHostRankEntries) break;
      f.hostRanks[host] = ranks;
    }
    return;
  }
  std::size_t total = 0;
  for (const auto& entry : o.hostRanks) total += entry.second.size();
  if (total > 0 && !f.worldSize) f.worldSize = static_cast<int>(total);
}

// fairscale's three sizes, as its setup prints them; with all three, the world size.
void applyFairscale(RunFacts& f, std::pair<Observed::Facts::Fairscale, int> size) {
  using Fairscale = Observed::Facts::Fairscale;
  std::optional<int>& slot = size.first == Fairscale::Data       ? f.fairscaleData
                             : size.first == Fairscale::Pipeline ? f.fairscalePipeline
                                                                 : f.fairscaleModel;
  slot = size.second;
  if (f.worldSize || !f.fairscaleModel || !f.fairscaleData || !f.fairscalePipeline) return;
  const long long world = static_cast<long long>(*f.fairscaleModel) * *f.fairscaleData * *f.fairscalePipeline;
  if (world < (1 << 24)) f.worldSize = static_cast<int>(world);
}

void applyFacts(RunFacts& f, const Observed::Facts& o) {
  rememberVersion(f.deepspeedVersion, o.deepspeedVersion);
  rememberVersion(f.torchVersion, o.torchVersion);
  for (const auto& [key, value] : o.config) f.resolvedConfig[key] = value;
  if (o.worldSize && !f.worldSize) f.worldSize = o.worldSize;
  if (o.fairscaleSize) applyFairscale(f, *o.fairscaleSize);
  applyHostRanks(f, o);
  if (o.pipelineDisabledOverlap) f.pipelineDisabledOverlap = true;
}

}  // namespace

bool applyObserved(State& s, const LineContext& c, const Observed& o) {
  applyLossScale(s.numerics, o.lossScale);
  applyFacts(s.facts, o.facts);
  StreamState& stream = s.streams[c.stream];
  if (o.hfMismatchLines) stream.hfMismatchLinesLeft = *o.hfMismatchLines;
  if (o.pydanticHeader) {
    stream.pydanticModel = o.pydanticHeader->model;
    stream.pydanticLinesLeft = o.pydanticHeader->lines;
  }
  for (std::size_t i = 0; i < o.findingCount; ++i) {
    const Observed::Finding& f = o.findings[i];
    Occurrence occ = occurrenceOf(c, f.useLineRank);
    if (f.textRank) takeTextRank(occ, *f.textRank);
    Accumulator* a = record(s, f.id, occ, f.options);
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

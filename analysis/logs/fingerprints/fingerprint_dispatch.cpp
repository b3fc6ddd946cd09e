// Routes each matched fingerprint to its handler: the table of handlers is built from
// fingerprint_table.inc, in the same order as the Fp enum.
#include <algorithm>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

constexpr FingerprintHandler kHandlers[] = {
#define DSLS_FINGERPRINT(name, literals, pattern) &on##name,
#include "analysis/logs/fingerprints/fingerprint_table.inc"
#undef DSLS_FINGERPRINT
};
static_assert(std::size(kHandlers) == static_cast<std::size_t>(Fp::Count));

}  // namespace

namespace {

bool hasKind(const std::vector<FpMatch>& line, Fp kind) {
  return std::any_of(line.begin(), line.end(), [&](const FpMatch& other) { return other.kind == kind; });
}

}  // namespace

bool Hit::lineAlsoHas(Fp kind) const { return hasKind(line, kind); }
bool HitView::lineAlsoHas(Fp kind) const { return hasKind(line, kind); }

long long toInt(std::string_view s, long long fallback) {
  auto v = text::parseInt(s);
  return v ? *v : fallback;
}

std::optional<double> toDouble(std::string_view s) {
  if (s.empty() || s.size() > 40) return std::nullopt;
  std::string copy(s);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str()) return std::nullopt;
  return v;
}

Accumulator* recordHere(const Hit& hit, FailureId failure, bool useLineRank) {
  return record(hit.s, failure, occurrenceOf(hit.c, useLineRank));
}

bool handleFingerprint(State& s, const LineContext& c, const FpMatch& m, const std::vector<FpMatch>& all) {
  return kHandlers[static_cast<std::size_t>(m.kind)](Hit{s, c, m, all});
}

}  // namespace dsls::logs::detail

// What each matched fingerprint contributes (findings, exit codes, collective timeouts per
// rank, facts about the run): one handler per row of fingerprint_table.inc, named on<Row>,
// in handlers_<concern>.cpp. A handler returns true when the match concerns a failure, so a
// generic exception on the same line is not reported separately.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/logs/analyzer_ops.h"

namespace dsls::logs::detail {

// One fingerprint matched on one line, as a handler sees it.
struct Hit {
  State& s;
  const LineContext& c;
  const FpMatch& m;
  const std::vector<FpMatch>& line;  // every fingerprint matched on this line

  std::string_view group(std::string_view name) const { return m.group(name); }
  std::string_view message() const { return c.prefix->message; }
  StreamState& stream() const { return s.streams[c.stream]; }
  bool lineAlsoHas(Fp kind) const;
};

using FingerprintHandler = bool (*)(const Hit&);

#define DSLS_FINGERPRINT(name, literals, pattern) bool on##name(const Hit& hit);
#include "analysis/logs/fingerprints/fingerprint_table.inc"
#undef DSLS_FINGERPRINT

// Shared by the handlers.
long long toInt(std::string_view s, long long fallback = -1);
std::optional<double> toDouble(std::string_view s);
// Keeps the first version a log names.
void rememberVersion(std::optional<std::string>& slot, std::string_view version);
// Records `failure` for this line and returns the accumulator (nullptr at the finding cap).
Accumulator* recordHere(const Hit& hit, FailureId failure, bool useLineRank = true);

}  // namespace dsls::logs::detail

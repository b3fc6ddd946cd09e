// What each matched fingerprint contributes (findings, exit codes, collective timeouts per
// rank, facts about the run): one handler per row of fingerprint_table.inc, named on<Row>,
// in handlers_<concern>.cpp. A handler returns true when the match concerns a failure, so a
// generic exception on the same line is not reported separately.
// A handler that only observes (handlers_config.cpp, handlers_numerics.cpp, handlers_pydantic.cpp,
// handlers_run_facts.cpp, handlers_zero.cpp) reads the line and its stream, never writes: its observe<Row> returns what
// the line showed (Observed), and applyObserved, the one place that writes such observations,
// takes it into the state.
#pragma once

#include <array>
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

// The same match, for a handler that observes: the line, and its stream read only.
struct HitView {
  const LineContext& c;
  const FpMatch& m;
  const StreamState& stream;  // what the line's stream showed before it, read only
  const std::vector<FpMatch>& line;

  explicit HitView(const Hit& hit) : c(hit.c), m(hit.m), stream(hit.stream()), line(hit.line) {}
  bool lineAlsoHas(Fp kind) const;
  std::string_view group(std::string_view name) const { return m.group(name); }
  std::string_view message() const { return c.prefix->message; }
};

// What one match showed, for applyObserved to take into the state.
struct Observed {
  bool failure = false;  // the match concerns a failure (the handler's answer)
  struct Finding {
    FailureId id{};
    bool useLineRank = true;  // false for lines DeepSpeed prints on rank 0 only
    std::optional<int> textRank;  // the rank the message itself names, where the line has no prefix
    RecordOptions options;
    std::array<std::string, 2> details{};  // added to the finding in this order; empty ones are not
    bool detailOnFirst = false;  // only when this line is the finding's first (the details name its values)
    std::string configKey;       // a ds_config key the finding concerns, when not empty
  };
  std::array<Finding, 2> findings{};  // recorded in this order
  std::size_t findingCount = 0;
  // fp16 loss scaling (NumericsState): an overflow line, the scale it went down to, and
  // whether that was the floor (no lower than 1, or not lower than the attempted scale).
  struct LossScale {
    bool overflowLine = false;
    std::optional<double> reduced;
    bool floorHit = false;
  } lossScale;
  // The line's stream reads this many following lines as the HF mismatch error's pairs.
  std::optional<std::size_t> hfMismatchLines;
  // A pydantic "N validation errors for Model" header: the model, and how many of the
  // stream's following lines may hold its errors.
  struct PydanticHeader {
    std::string model;
    std::size_t lines = 0;
  };
  std::optional<PydanticHeader> pydanticHeader;
  // Facts about the run (RunFacts) a line names.
  struct Facts {
    std::string_view deepspeedVersion, torchVersion;  // kept where the log named none before
    std::vector<std::pair<std::string, std::string>> config;  // resolved config entries; a later one wins
    std::optional<int> worldSize;                               // kept where none is known yet
    enum class Fairscale { Model, Data, Pipeline };
    std::optional<std::pair<Fairscale, int>> fairscaleSize;  // with all three: the world size
    // The ranks of each host, global ones (kept) or local ones (counted for the world size).
    std::vector<std::pair<std::string, std::vector<int>>> hostRanks;
    bool globalHostRanks = false;
    bool pipelineDisabledOverlap = false;
  } facts;

  Finding& add(FailureId id, bool useLineRank = true);
};

// Takes what a match showed into the state; returns `o.failure`.
bool applyObserved(State& s, const LineContext& c, const Observed& o);
// A handler made of an observer: what `observe` returns for the match, taken into the state.
bool applyObserved(const Hit& hit, Observed (*observe)(const HitView&));

using FingerprintHandler = bool (*)(const Hit&);

// Defines the handler on<Name> of a fingerprint whose observer observe<Name> says what it saw.
#define DSLS_OBSERVING_HANDLER(name) \
  bool on##name(const Hit& hit) { return applyObserved(hit, observe##name); }

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

// Internal operations of LogAnalyzer, split over several files by concern:
// recording findings (log_analyzer.cpp), fingerprint handlers
// (fingerprint_handlers.h, handlers_*.cpp), metrics (metrics_scan.cpp), the torchrun
// failure summary (torchrun_summary.cpp) and the final diagnosis (diagnosis*.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/logs/analyzer_state.h"
#include "analysis/logs/lines/line_literals.h"
#include "analysis/logs/lines/traceback.h"

namespace dsls::logs::detail {

using State = LogAnalyzer::State;

struct LineContext {
  std::size_t lineNo = 0;
  std::size_t offset = 0;
  std::string_view raw;    // the line as given: its length is the evidence length
  std::string_view clean;  // the line without colour codes: shown as evidence text
  const PrefixView* prefix = nullptr;
  std::size_t stream = 0;
  const LineOrigin* origin = nullptr;  // a job of several files: the line's file and line there
  bool exceptionLine = false;  // this line ended a Python traceback
  unsigned phase = 0;
  const std::vector<std::string>* frames = nullptr;
};

// What one occurrence contributes to a finding.
struct Occurrence {
  // Without its text when `textOf` is set: the text is made only if the finding keeps this
  // evidence (a repeated failure line is counted, not copied). Set `textOf` to nullptr when
  // replacing `evidence` with another line's.
  Evidence evidence;
  const LineContext* textOf = nullptr;
  std::optional<int> rank;  // the rank the failure belongs to (not always the line's prefix)
  RankSource rankSource = RankSource::None;
  std::string_view rankFamily;  // which prefix family gave `rank`
  std::size_t stream = 0;
  unsigned phase = 0;
  const std::vector<std::string>* frames = nullptr;
};

// The rank the error's own text names, for an occurrence whose line has no rank prefix.
void takeTextRank(Occurrence& occ, int rank);
// A first rank the finding's first occurrence did not have, from a later line (a launcher's
// report, a report's header); its other occurrences stay as they are.
void giveFirstRank(Accumulator& a, int rank, RankSource source, std::string_view family);

Evidence makeEvidence(const LineContext& c);
// "line 12", or "line 12 of <file>" for a line of a job of several files.
std::string lineRef(const State& s, std::size_t line, std::optional<std::size_t> file);
std::string lineRef(const State& s, const Evidence& e);
// Where the accumulator's first occurrence is.
std::string firstLineRef(const State& s, const Accumulator& a);
// The occurrence's evidence with its text.
Evidence fullEvidence(const Occurrence& occ);
// `useLineRank` false for lines DeepSpeed prints on rank 0 only (metrics, overflow).
Occurrence occurrenceOf(const LineContext& c, bool useLineRank = true);

struct RecordOptions {
  std::optional<Tier> tier;                    // overrides the catalogue tier
  std::optional<analysis::Severity> severity;  // overrides the catalogue severity
  std::string keySuffix;                       // separate findings with one id (exception types)
  std::string title;                           // overrides the catalogue title
};

// Adds one occurrence; returns nullptr when the finding cap is reached.
Accumulator* record(State& s, FailureId failure, const Occurrence& occ, const RecordOptions& options = {});
// The finding recorded for `failure` without a key suffix; nullptr when there is none.
Accumulator* findAccumulator(State& s, FailureId failure);
const Accumulator* findAccumulator(const State& s, FailureId failure);
void addDetail(Accumulator* a, std::string detail);
void addConfigKey(Accumulator* a, std::string key);
void addTimelineEvent(State& s, std::size_t stream, const Evidence& ev, TimelineEventKind kind, std::string_view id,
                      std::string_view label);

// Returns true when the match concerns a failure (so a generic exception on the
// same line is not reported separately).
bool handleFingerprint(State& s, const LineContext& c, const FpMatch& m, const std::vector<FpMatch>& all);
void handleContinuations(State& s, const LineContext& c, std::string_view message, bool matched);
void scanMetrics(State& s, const LineContext& c, std::string_view message, const LineLiteralHits& literals);
// Hard-wrapped lines: a line cut inside a fingerprint, continued on the next line without
// its prefix, is matched joined when neither piece matches alone.
void joinWrappedLine(State& s, const LineContext& c, bool lineMatched);
// The exception line after a rich box (rich_exception.cpp): held when it matched nothing,
// extended by the lines that continue its wrapped message (`continueRichException` is true
// for those), then matched joined, or reported as a plain exception, by `flushRichException`.
bool holdRichException(State& s, const LineContext& c);
// The terminal columns of a box line: the console width rich drew it at (100 at most).
std::size_t richBoxWidth(std::string_view boxLine);
bool continueRichException(State& s, const LineContext& c);
void flushRichException(State& s);
// An exception line that no fingerprint explains: a plain Python exception, or collateral.
void handleGenericException(State& s, const LineContext& c, const tb::ExceptionLine& ex);
void stepTorchrunSummary(State& s, const LineContext& c, std::string_view message);
bool startsTorchrunEntry(std::string_view message);
void finishTorchrunEntry(State& s);
// A worker's exit by a fault of its own process (-11 SIGSEGV, -7 SIGBUS, -4 SIGILL, -8 SIGFPE):
// the signal's name, or empty. Unlike -6, -9 and -15, no other process sends these.
std::string_view crashSignalName(long long exitCode);
void recordExit(State& s, const LineContext& c, ExitObservation exit);

LogReport diagnose(State& s);

std::string joinRanks(const std::vector<int>& ranks, std::size_t max = 24);
std::string formatDuration(double seconds);

}  // namespace dsls::logs::detail

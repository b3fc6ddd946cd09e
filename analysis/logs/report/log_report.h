// The result of analysing one training log: findings (the initiating failure,
// its collateral, and other observations), versions, the resolved config values
// the log printed, and a per-rank timeline.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/core/finding.h"

namespace dsls::logs {

// One log line supporting a finding. `line` is 1-based; `byteOffset`/`length`
// cover the line without its terminator.
struct Evidence {
  std::size_t line = 0;
  std::size_t byteOffset = 0;
  std::size_t length = 0;
  std::string text;  // the line, valid UTF-8, shortened if very long
  std::optional<int> rank;
  std::string host;
  std::optional<std::size_t> file;  // a job of several files: index into LogReport::files
  std::size_t seq = 0;  // position in the analysed order (a job's merged order; `line` for one log)
};

// How many ranks the failure concerns: one named rank; every rank (a deterministic error,
// raised the same way everywhere); or unknown (no rank evidence, or several ranks with
// the same error and nothing to order them).
enum class RankScope { One, All, Unknown };
std::string_view rankScopeName(RankScope scope);  // "one", "all", "unknown"

struct LogFinding {
  std::string id;  // stable kebab-case failure id, e.g. "cuda-oom"
  std::string title;
  analysis::Severity severity = analysis::Severity::Error;
  bool initiating = false;  // the chosen root failure
  bool collateral = false;  // a consequence of the initiating failure (timeouts, aborts)
  std::optional<int> initiatingRank;
  std::string rankReason;  // why this rank, or why the rank is unknown; names the rank evidence
  std::optional<RankScope> rankScope;  // set on the initiating finding and on primary failures
  std::vector<int> scopeRanks;         // the ranks that reported it (scope "all" or "unknown")
  std::vector<int> collateralRanks;
  std::vector<Evidence> evidence;  // capped; evidenceTotal counts every matching line
  std::size_t evidenceTotal = 0;
  std::string mechanism, fix, verify;
  std::vector<std::string> configKeys;  // e.g. "zero_optimization.overlap_comm"
  std::vector<std::string> ruleCodes;   // config rule codes, e.g. "overlap-comm-race"
};

enum class TimelineEventKind { Failure, Timeout, Abort, Exit, Warning };

struct TimelineEvent {
  std::size_t line = 0;
  std::size_t byteOffset = 0;
  TimelineEventKind kind = TimelineEventKind::Failure;
  std::string findingId;
  std::string label;
  bool initiating = false;
  std::optional<std::size_t> file;  // a job of several files: index into LogReport::files
  std::size_t seq = 0;              // position in the analysed order, as Evidence::seq
  std::optional<double> time;       // seconds in the year of the last timestamp seen at this event
};

// One row of the timeline: the lines of one rank (or of one host, or the lines
// without any prefix).
struct RankTimeline {
  std::optional<int> rank;
  std::string host;
  std::string label;
  std::size_t firstLine = 0, lastLine = 0;
  std::size_t firstOffset = 0, lastOffset = 0;
  std::size_t lineCount = 0;
  std::optional<double> firstTime, lastTime;  // the row's first and last timestamps (seconds in the year)
  std::vector<TimelineEvent> events;  // capped; eventsTotal counts all
  std::size_t eventsTotal = 0;
  bool highlighted = false;  // the initiating (or suspect) rank
};

struct LogReport {
  std::vector<LogFinding> findings;  // initiating first, then by severity and first line
  std::optional<std::string> deepspeedVersion, torchVersion, ncclVersion;
  std::vector<int> ranksSeen;
  std::optional<int> worldSize;
  std::vector<RankTimeline> timeline;
  std::size_t timelineRowsDropped = 0;
  std::map<std::string, std::string> resolvedConfig;  // from DeepSpeed's config dump, e.g. "zero_optimization.overlap_comm"
  std::string verdict;  // one paragraph: the initiating failure, or why none was chosen
  std::size_t linesRead = 0;
  std::size_t bytesRead = 0;
  // A job of several files (one per rank): their paths. Evidence and events name their file by
  // index, and their `line` is the line in that file; rows' first/last lines count the merged job.
  std::vector<std::string> files;

  // The timeline's axis is wall-clock time when at least two events carry different timestamps.
  bool wallClockTimeline() const;

  const LogFinding* initiatingFinding() const;

  std::string markdown() const;     // failure, initiating rank, collateral, fix, verify, then the timeline
  std::string timelineSvg() const;  // self-contained SVG, one row per rank
  nlohmann::json toJson() const;    // schema: docs/logs/report-schema.md
};

std::string severityName(analysis::Severity s);
// The finding's rank for people: "3", "every rank", "unknown (ranks 2, 5 report it)", "unknown".
std::string rankLabel(const LogFinding& f);

}  // namespace dsls::logs

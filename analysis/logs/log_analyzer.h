// One-pass, bounded-memory analysis of a multi-rank training log. Feed lines in
// order with addLine(), then call finish() once.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/core/settings.h"
#include "analysis/logs/report/log_report.h"

namespace dsls::logs {

// Facts about the run known from outside the log, e.g. the ds_config the run
// used. Values printed by DeepSpeed in the log itself take precedence.
struct AnalyzerOptions {
  std::optional<int> zeroStage;
  std::optional<bool> overlapComm;
  std::optional<bool> contiguousGradients;
  std::optional<bool> bf16Enabled;
  std::optional<std::string> deepspeedVersion;
  std::optional<std::string> torchVersion;

  // The versions the user's settings name stand in for those a log does not print itself.
  static AnalyzerOptions fromSettings(const analysis::Settings& settings);
};

// Sizes of the analyser's retained state, for checking that memory stays
// bounded however long the log is.
struct AnalyzerStateSize {
  std::size_t streams = 0;
  std::size_t accumulators = 0;
  std::size_t evidence = 0;
  std::size_t timelineEvents = 0;
  std::size_t trackedRanks = 0;
  std::size_t approximateBytes = 0;
};

// Where a line of a job of several files comes from: its file, its line there, and the rank
// the file's path names (used when the line's own prefix names none).
struct LineOrigin {
  std::size_t file = 0;
  std::size_t line = 0;  // 1-based, in that file
  std::optional<int> rank;
  bool localRank = false;  // the path gives a local rank (torchrun's log folder on one of several nodes)
};

class LogAnalyzer {
 public:
  LogAnalyzer();
  explicit LogAnalyzer(AnalyzerOptions options);
  ~LogAnalyzer();
  LogAnalyzer(LogAnalyzer&&) noexcept;
  LogAnalyzer& operator=(LogAnalyzer&&) noexcept;

  // `line` excludes its terminator; `byteOffset` is where it starts in the document.
  void addLine(std::string_view line, std::size_t byteOffset);
  // A line of one file of a job, in the merged order; `byteOffset` is its offset in that file.
  void addLine(std::string_view line, std::size_t byteOffset, const LineOrigin& origin);
  // The job's file paths, indexed by LineOrigin::file; call before the first line.
  void setFiles(std::vector<std::string> paths);
  // Learns the log's own per-process tags (process_tags.h) from its first bytes, so that they
  // count from the first line; call before the first line. Without it they are learned from
  // the lines as they come, and count from the line that settles them.
  void learnProcessTags(std::string_view head);
  LogReport finish();

  AnalyzerStateSize stateSize() const;

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace dsls::logs

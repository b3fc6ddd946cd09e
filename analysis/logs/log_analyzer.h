// One-pass, bounded-memory analysis of a multi-rank training log. Feed lines in
// order with addLine(), then call finish() once.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/logs/log_report.h"

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

class LogAnalyzer {
 public:
  LogAnalyzer();
  explicit LogAnalyzer(AnalyzerOptions options);
  ~LogAnalyzer();
  LogAnalyzer(LogAnalyzer&&) noexcept;
  LogAnalyzer& operator=(LogAnalyzer&&) noexcept;

  // `line` excludes its terminator; `byteOffset` is where it starts in the document.
  void addLine(std::string_view line, std::size_t byteOffset);
  LogReport finish();

  AnalyzerStateSize stateSize() const;

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace dsls::logs

// Entry points: analyse a whole text or a stream (read in chunks, for
// multi-gigabyte files), and a cheap test whether a .log/.txt file is a
// training log worth analysing.
#pragma once

#include <cstddef>
#include <functional>
#include <istream>
#include <string>
#include <string_view>

#include "analysis/core/cancel.h"
#include "analysis/logs/log_analyzer.h"
#include "analysis/logs/report/log_report.h"

namespace dsls::logs {

// A cancelled analysis (the document changed while it ran) throws analysis::Cancelled.
LogReport analyzeText(std::string_view text, const AnalyzerOptions& options = {},
                      const analysis::Cancellation& cancel = {});
LogReport analyzeStream(std::istream& in, const AnalyzerOptions& options = {});

// True when the first ~64 KB contain a rank/launcher/logger prefix, a known fingerprint, or a
// failure the log analysis finds there (a Python exception only with training-stack frames).
bool looksLikeTrainingLog(std::string_view head);

// Splits bytes into lines at "\n", "\r\n" or a lone "\r" (the terminators LSP
// counts), across chunk boundaries. Lines longer than `maxLine` bytes are cut
// for analysis; offsets stay exact.
class LineSplitter {
 public:
  using Sink = std::function<void(std::string_view line, std::size_t byteOffset)>;
  explicit LineSplitter(Sink sink, std::size_t maxLine = std::size_t{1} << 20);
  void feed(std::string_view chunk);
  void finish();

  // Where the next line starts and how many lines came before it, after the chunks fed so
  // far; false where a '\r' ends the last chunk (a '\n' may yet join it).
  bool nextLineStart(std::size_t& offset, std::size_t& linesBefore) const;

 private:
  void emit(std::string_view line, std::size_t offset) {
    ++lines_;
    sink_(line, offset);
  }
  void appendPartial(std::string_view piece, std::size_t offset);
  Sink sink_;
  std::size_t maxLine_;
  std::string partial_;
  bool hasPartial_ = false;
  std::size_t partialOffset_ = 0;
  std::size_t chunkBase_ = 0;
  bool pendingCR_ = false;
  std::size_t lines_ = 0;  // lines passed to the sink
};

}  // namespace dsls::logs

// A training log of any size through the log analyser, chunk by chunk, in bounded memory:
// for callers that read a file in pieces instead of holding it whole.
#pragma once

#include "analysis/core/settings.h"

#include <memory>
#include <string_view>

namespace dsls::logs {
struct LogReport;
}

namespace dsls::analysis {

class LogStream {
 public:
  // The versions in `settings` stand in for those the log does not print itself.
  explicit LogStream(const Settings& settings);
  ~LogStream();
  LogStream(const LogStream&) = delete;
  LogStream& operator=(const LogStream&) = delete;

  // Bytes in file order; lines may span chunks.
  void feed(std::string_view chunk);
  // Call once, after the last chunk.
  std::shared_ptr<const logs::LogReport> finish();

  // Where the next line starts (a byte offset) and its 1-based number, after the chunks fed
  // so far: lines end at "\n", "\r\n" or a lone "\r". False where a "\r" ends the last
  // chunk, as the next byte decides.
  bool nextLineStart(std::size_t& offset, std::size_t& line) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace dsls::analysis

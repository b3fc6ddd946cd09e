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

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace dsls::analysis

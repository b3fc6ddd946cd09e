#include "lsp/logger.h"

#include <chrono>
#include <cstdio>

namespace dsls::lsp {

std::optional<LogLevel> parseLogLevel(std::string_view s) {
  if (s == "error") return LogLevel::Error;
  if (s == "warning" || s == "warn") return LogLevel::Warning;
  if (s == "info") return LogLevel::Info;
  if (s == "debug" || s == "verbose" || s == "trace") return LogLevel::Debug;
  return std::nullopt;
}

void Logger::setMirror(std::function<void(LogLevel, const std::string&)> mirror) {
  std::lock_guard lock(mutex_);
  mirror_ = std::move(mirror);
}

void Logger::log(LogLevel level, std::string_view message) {
  if (level > level_) return;
  static constexpr char kLetters[] = {'E', 'W', 'I', 'D'};
  auto now = std::chrono::system_clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  std::function<void(LogLevel, const std::string&)> mirror;
  {
    std::lock_guard lock(mutex_);
    std::string line = fmt::format("{}[{:02}:{:02}:{:02}.{:03}] {}\n", kLetters[static_cast<int>(level)],
                                   (ms / 3600000) % 24, (ms / 60000) % 60, (ms / 1000) % 60, ms % 1000, message);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
    if (level <= LogLevel::Warning) mirror = mirror_;
  }
  if (mirror) mirror(level, std::string(message));
}

}  // namespace dsls::lsp

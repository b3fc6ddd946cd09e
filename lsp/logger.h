// Server log: stderr only (stdout carries the protocol), optionally mirrored to the client.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace dsls::lsp {

enum class LogLevel { Error = 0, Warning = 1, Info = 2, Debug = 3 };

std::optional<LogLevel> parseLogLevel(std::string_view);

class Logger {
 public:
  explicit Logger(LogLevel level = LogLevel::Info) : level_(level) {}

  void setLevel(LogLevel level) { level_ = level; }
  // Warnings and errors are also handed to `mirror` (the server forwards them as window/logMessage).
  void setMirror(std::function<void(LogLevel, const std::string&)> mirror);

  void log(LogLevel level, std::string_view message);

  template <typename... Args>
  void error(fmt::format_string<Args...> f, Args&&... args) { emit(LogLevel::Error, f, std::forward<Args>(args)...); }
  template <typename... Args>
  void warn(fmt::format_string<Args...> f, Args&&... args) { emit(LogLevel::Warning, f, std::forward<Args>(args)...); }
  template <typename... Args>
  void info(fmt::format_string<Args...> f, Args&&... args) { emit(LogLevel::Info, f, std::forward<Args>(args)...); }
  template <typename... Args>
  void debug(fmt::format_string<Args...> f, Args&&... args) { emit(LogLevel::Debug, f, std::forward<Args>(args)...); }

 private:
  template <typename... Args>
  void emit(LogLevel level, fmt::format_string<Args...> f, Args&&... args) {
    if (level <= level_) log(level, fmt::format(f, std::forward<Args>(args)...));
  }

  LogLevel level_;
  std::mutex mutex_;
  std::function<void(LogLevel, const std::string&)> mirror_;
};

}  // namespace dsls::lsp

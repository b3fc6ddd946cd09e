#include "analysis/facade/log_stream.h"

#include "analysis/logs/analyze.h"
#include "analysis/logs/log_analyzer.h"

namespace dsls::analysis {

struct LogStream::State {
  logs::LogAnalyzer analyzer;
  logs::LineSplitter splitter;
  bool fedAny = false;

  explicit State(logs::AnalyzerOptions options)
      : analyzer(std::move(options)),
        splitter([this](std::string_view line, std::size_t offset) { analyzer.addLine(line, offset); }) {}
};

LogStream::LogStream(const Settings& settings)
    : state_(std::make_unique<State>(logs::AnalyzerOptions::fromSettings(settings))) {}

LogStream::~LogStream() = default;

void LogStream::feed(std::string_view chunk) {
  if (!state_->fedAny) state_->analyzer.learnProcessTags(chunk.substr(0, std::size_t{256} << 10));
  state_->fedAny = true;
  state_->splitter.feed(chunk);
}

bool LogStream::nextLineStart(std::size_t& offset, std::size_t& line) const {
  std::size_t before = 0;
  if (!state_->splitter.nextLineStart(offset, before)) return false;
  line = before + 1;
  return true;
}

std::shared_ptr<const logs::LogReport> LogStream::finish() {
  state_->splitter.finish();
  return std::make_shared<const logs::LogReport>(state_->analyzer.finish());
}

}  // namespace dsls::analysis

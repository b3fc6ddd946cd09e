#include "analysis/logs/analyze.h"

#include "protocol/line_breaks.h"

#include <algorithm>
#include <vector>

namespace dsls::logs {

LineSplitter::LineSplitter(Sink sink, std::size_t maxLine) : sink_(std::move(sink)), maxLine_(maxLine) {}

void LineSplitter::appendPartial(std::string_view piece, std::size_t offset) {
  if (!hasPartial_) {
    hasPartial_ = true;
    partialOffset_ = offset;
    partial_.clear();
  }
  if (partial_.size() < maxLine_) partial_.append(piece.substr(0, maxLine_ - partial_.size()));
}

void LineSplitter::feed(std::string_view chunk) {
  std::size_t i = 0;
  if (pendingCR_) {
    pendingCR_ = false;
    if (!chunk.empty() && chunk[0] == '\n') i = 1;  // second half of a "\r\n" split across chunks
  }
  protocol::LineBreaks breaks(chunk);  // the one line model, as LineIndex and the CLI count lines
  while (i < chunk.size()) {
    const protocol::LineBreak b = breaks.next(i);
    const std::size_t j = b.at;
    if (b.length == 0) {
      appendPartial(chunk.substr(i), chunkBase_ + i);
      break;
    }
    if (hasPartial_) {
      appendPartial(chunk.substr(i, j - i), chunkBase_ + i);
      emit(partial_, partialOffset_);
      hasPartial_ = false;
    } else {
      const std::string_view line = chunk.substr(i, j - i);
      emit(line.substr(0, maxLine_), chunkBase_ + i);
    }
    // A "\r" that ends the chunk may be the first half of a "\r\n" split across chunks.
    if (b.length == 1 && b.end() == chunk.size() && chunk[j] == '\r') pendingCR_ = true;
    i = b.end();
  }
  chunkBase_ += chunk.size();
}

bool LineSplitter::nextLineStart(std::size_t& offset, std::size_t& linesBefore) const {
  if (pendingCR_) return false;
  offset = hasPartial_ ? partialOffset_ : chunkBase_;
  linesBefore = lines_;
  return true;
}

void LineSplitter::finish() {
  if (hasPartial_) emit(partial_, partialOffset_);
  hasPartial_ = false;
  partial_.clear();
  partial_.shrink_to_fit();
}

namespace {
// The bytes a log's per-process tags are learned from before its first line.
constexpr std::size_t kProcessTagHead = std::size_t{256} << 10;
}  // namespace

LogReport analyzeText(std::string_view text, const AnalyzerOptions& options, const analysis::Cancellation& cancel) {
  LogAnalyzer analyzer(options);
  analyzer.learnProcessTags(text.substr(0, kProcessTagHead));
  LineSplitter splitter([&](std::string_view line, std::size_t offset) { analyzer.addLine(line, offset); });
  // In slices, so that a superseded analysis of a large log stops within one slice.
  constexpr std::size_t kSlice = std::size_t{1} << 20;
  for (std::size_t at = 0; at < text.size(); at += kSlice) {
    cancel.throwIfRequested();
    splitter.feed(text.substr(at, kSlice));
  }
  splitter.finish();
  return analyzer.finish();
}

LogReport analyzeStream(std::istream& in, const AnalyzerOptions& options) {
  LogAnalyzer analyzer(options);
  LineSplitter splitter([&](std::string_view line, std::size_t offset) { analyzer.addLine(line, offset); });
  std::vector<char> chunk(std::size_t{1} << 20);
  bool first = true;
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const std::streamsize got = in.gcount();
    if (got <= 0) break;
    if (first) analyzer.learnProcessTags(std::string_view(chunk.data(), static_cast<std::size_t>(got)).substr(0, kProcessTagHead));
    first = false;
    splitter.feed(std::string_view(chunk.data(), static_cast<std::size_t>(got)));
  }
  splitter.finish();
  return analyzer.finish();
}

}  // namespace dsls::logs

#include "cli/text_locator.h"

#include "protocol/line_breaks.h"

#include <algorithm>
#include <iterator>

namespace dsls::cli {
namespace {

std::vector<std::size_t> sortedUnique(std::vector<std::size_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Bytes from `from` up to `limit` before the next line break.
std::size_t ordinaryRun(protocol::LineBreaks& breaks, std::size_t from, std::size_t limit) {
  return limit <= from ? 0 : std::min(breaks.next(from).at, limit) - from;
}

// Whole lines from `from` whose breaks end by `limit`: how many, and where the last one ends.
// A "\r" that ends the chunk is left to the byte loop: a "\n" in the next chunk may join it.
std::size_t wholeLines(std::string_view chunk, protocol::LineBreaks& breaks, std::size_t& from, std::size_t limit) {
  std::size_t n = 0;
  for (protocol::LineBreak b = breaks.next(from); b.length > 0 && b.end() <= limit; b = breaks.next(from)) {
    if (b.length == 1 && b.end() == chunk.size() && chunk[b.at] == '\r') break;
    ++n;
    from = b.end();
  }
  return n;
}

// Code points that start in `bytes` (UTF-8 continuation bytes start none).
std::size_t codePoints(std::string_view bytes) {
  std::size_t n = 0;
  for (const char c : bytes) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

}  // namespace

// The chunk index of the next offset to resolve or wanted line to start, or `size`.
std::size_t TextLocator::nextEvent(std::size_t base, std::size_t size) const {
  std::size_t limit = size;
  if (nextOffset_ < offsets_.size()) limit = std::min(limit, offsets_[nextOffset_] > base ? offsets_[nextOffset_] - base : 0);
  if (nextWanted_ < lineWanted_.size())
    limit = std::min(limit, lineWanted_[nextWanted_] > base ? lineWanted_[nextWanted_] - base : 0);
  return limit;
}

TextLocator::TextLocator(std::vector<std::size_t> offsets, const std::vector<std::size_t>& wantLines,
                         std::size_t maxLineBytes)
    : offsets_(sortedUnique(std::move(offsets))), lineWanted_(sortedUnique(wantLines)), maxLineBytes_(maxLineBytes) {}

void TextLocator::closeLine() {
  if (capturing_) {
    if (!current_.empty() && current_.back() == '\r') current_.pop_back();
    if (line_ == 1 && current_.starts_with("\xEF\xBB\xBF")) current_.erase(0, 3);
    lines_[line_] = current_;
  }
  capturing_ = false;
  current_.clear();
  ++line_;
  column_ = 1;
  pendingCR_ = false;
}

void TextLocator::feed(std::string_view chunk) {
  const std::size_t base = consumed_;
  std::size_t segmentStart = 0;  // start in `chunk` of the current line's bytes not yet copied
  auto keep = [&](std::size_t end) {
    if ((capturing_ || nextWanted_ < lineWanted_.size()) && current_.size() < maxLineBytes_ && end > segmentStart)
      current_.append(chunk.substr(segmentStart, std::min(end - segmentStart, maxLineBytes_ - current_.size())));
    segmentStart = end;
  };
  protocol::LineBreaks breaks(chunk);  // the one line model, as LineIndex and the log splitter count lines
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    // Whole lines before the next offset or wanted line, none of them kept: counted in bulk.
    if (!pendingCR_ && !capturing_ && base + i != 0) {
      if (const std::size_t n = wholeLines(chunk, breaks, i, nextEvent(base, chunk.size())); n > 0) {
        line_ += n;
        column_ = 1;
        current_.clear();
        segmentStart = i;
        if (i == chunk.size()) break;
      }
    }
    // Bytes inside a line, before the next offset or wanted line, only move the column.
    if (!pendingCR_ && base + i != 0) {
      const std::size_t run = ordinaryRun(breaks, i, nextEvent(base, chunk.size()));
      column_ += codePoints(chunk.substr(i, run));
      i += run;
      if (i == chunk.size()) break;
    }
    const unsigned char c = static_cast<unsigned char>(chunk[i]);
    // A "\r" ends its line once the next byte shows it is not the start of "\r\n".
    if (pendingCR_ && c != '\n') {
      keep(i);
      closeLine();
    }
    const std::size_t at = base + i;
    while (nextOffset_ < offsets_.size() && offsets_[nextOffset_] <= at) {
      resolved_[offsets_[nextOffset_]] = {line_, column_, offsets_[nextOffset_]};
      ++nextOffset_;
    }
    while (nextWanted_ < lineWanted_.size() && lineWanted_[nextWanted_] <= at) {
      lineOfOffset_[lineWanted_[nextWanted_]] = line_;
      capturing_ = true;
      ++nextWanted_;
    }
    if (c == '\r') {
      pendingCR_ = true;
      ++column_;
    } else if (c == '\n') {
      keep(i);
      closeLine();
      segmentStart = i + 1;
    } else if ((c & 0xC0) != 0x80 && !(at == 0 && chunk.starts_with("\xEF\xBB\xBF"))) {
      ++column_;  // a byte order mark takes no column, as editors do not show it
    }
  }
  keep(chunk.size());
  consumed_ += chunk.size();
}

bool TextLocator::done() const {
  return nextOffset_ == offsets_.size() && nextWanted_ == lineWanted_.size() && !capturing_;
}

std::size_t TextLocator::nextNeeded() const {
  if (capturing_ || pendingCR_) return consumed_;
  std::size_t next = static_cast<std::size_t>(-1);
  if (nextOffset_ < offsets_.size()) next = offsets_[nextOffset_];
  if (nextWanted_ < lineWanted_.size()) next = std::min(next, lineWanted_[nextWanted_]);
  return next;
}

bool TextLocator::skipTo(LineStart to) {
  if (to.offset <= consumed_ || to.offset > nextNeeded()) return false;
  consumed_ = to.offset;
  line_ = to.line;
  column_ = 1;
  current_.clear();
  return true;
}

void TextLocator::finish() {
  if (pendingCR_) closeLine();
  for (; nextOffset_ < offsets_.size(); ++nextOffset_)
    resolved_[offsets_[nextOffset_]] = {line_, column_, offsets_[nextOffset_]};
  for (; nextWanted_ < lineWanted_.size(); ++nextWanted_) {
    lineOfOffset_[lineWanted_[nextWanted_]] = line_;
    capturing_ = true;
  }
  if (capturing_) {
    if (line_ == 1 && current_.starts_with("\xEF\xBB\xBF")) current_.erase(0, 3);
    lines_[line_] = current_;
  }
  capturing_ = false;
}

Position TextLocator::at(std::size_t offset) const {
  if (auto it = resolved_.find(offset); it != resolved_.end()) return it->second;
  // Not asked for up front: the nearest resolved position before it is the best answer there is.
  auto it = resolved_.upper_bound(offset);
  if (it == resolved_.begin()) return {1, 1, offset};
  Position p = std::prev(it)->second;
  p.offset = offset;
  return p;
}

std::string TextLocator::lineText(std::size_t offset) const {
  auto it = lineOfOffset_.find(offset);
  if (it == lineOfOffset_.end()) return {};
  auto line = lines_.find(it->second);
  return line == lines_.end() ? std::string() : line->second;
}

TextLocator locate(std::string_view text, std::vector<std::size_t> offsets, const std::vector<std::size_t>& wantLines) {
  TextLocator locator(std::move(offsets), wantLines);
  locator.feed(text);
  locator.finish();
  return locator;
}

}  // namespace dsls::cli

#include "protocol/line_index.h"

#include <algorithm>
#include <cstring>

namespace dsls::protocol {

std::string_view encodingName(PositionEncoding e) {
  switch (e) {
    case PositionEncoding::Utf8: return "utf-8";
    case PositionEncoding::Utf16: return "utf-16";
    case PositionEncoding::Utf32: return "utf-32";
  }
  return "utf-16";
}

std::size_t utf8SequenceLength(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b = byte(i);
  std::size_t n;
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) n = 2;
  else if (b >= 0xE0 && b <= 0xEF) n = 3;
  else if (b >= 0xF0 && b <= 0xF4) n = 4;
  else return 1;
  if (i + n > s.size()) return 1;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 1;
  // Reject overlong forms, surrogates and code points past U+10FFFF.
  unsigned char b1 = byte(i + 1);
  if (b == 0xE0 && b1 < 0xA0) return 1;
  if (b == 0xED && b1 >= 0xA0) return 1;
  if (b == 0xF0 && b1 < 0x90) return 1;
  if (b == 0xF4 && b1 >= 0x90) return 1;
  return n;
}

namespace {

std::uint32_t unitsOf(std::size_t sequenceLength, PositionEncoding e) {
  switch (e) {
    case PositionEncoding::Utf8: return static_cast<std::uint32_t>(sequenceLength);
    case PositionEncoding::Utf16: return sequenceLength == 4 ? 2 : 1;
    case PositionEncoding::Utf32: return 1;
  }
  return 1;
}

}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
  lineStarts_.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  const char* begin = text.data();
  const char* end = begin + text.size();
  for (const char* p = begin; p != end && (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p))));) {
    ++p;
    lineStarts_.push_back(static_cast<std::uint32_t>(std::min<std::size_t>(static_cast<std::size_t>(p - begin), UINT32_MAX)));
  }
}

void LineIndex::edit(std::string_view newText, std::size_t begin, std::size_t oldEnd, std::string_view inserted) {
  // Starts in (begin, oldEnd] follow a '\n' that the edit removed; those after it move.
  const auto first = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), begin);
  const auto last = std::upper_bound(first, lineStarts_.end(), oldEnd);
  const auto clamp = [](std::size_t offset) { return static_cast<std::uint32_t>(std::min<std::size_t>(offset, UINT32_MAX)); };
  const std::int64_t delta = static_cast<std::int64_t>(inserted.size()) - static_cast<std::int64_t>(oldEnd - begin);
  std::vector<std::uint32_t> added;
  for (std::size_t i = inserted.find('\n'); i != std::string_view::npos; i = inserted.find('\n', i + 1))
    added.push_back(clamp(begin + i + 1));
  for (auto it = last; it != lineStarts_.end(); ++it) *it = clamp(static_cast<std::size_t>(*it + delta));
  const auto at = lineStarts_.erase(first, last);
  lineStarts_.insert(at, added.begin(), added.end());
  text_ = newText;
}

std::size_t LineIndex::lineStart(std::uint32_t line) const {
  return lineStarts_[std::min<std::size_t>(line, lineStarts_.size() - 1)];
}

std::size_t LineIndex::lineContentEnd(std::uint32_t line) const {
  std::size_t l = std::min<std::size_t>(line, lineStarts_.size() - 1);
  if (l + 1 == lineStarts_.size()) return text_.size();  // the last line has no break
  std::size_t end = lineStarts_[l + 1] - 1;              // the '\n'
  if (end > lineStarts_[l] && text_[end - 1] == '\r') --end;
  return end;
}

std::uint32_t LineIndex::lineOf(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  return static_cast<std::uint32_t>(it - lineStarts_.begin() - 1);
}

Position LineIndex::position(std::size_t offset, PositionEncoding e) const {
  offset = std::min(offset, text_.size());
  std::uint32_t line = lineOf(offset);
  std::size_t i = lineStarts_[line];
  std::uint32_t units = 0;
  while (i < offset) {
    std::size_t n = utf8SequenceLength(text_, i);
    if (i + n > offset) break;  // offset inside a character: stop at its start
    units += unitsOf(n, e);
    i += n;
  }
  return {line, units};
}

std::size_t LineIndex::offset(Position p, PositionEncoding e) const {
  if (p.line >= lineStarts_.size()) return text_.size();
  std::size_t i = lineStarts_[p.line];
  std::size_t end = lineContentEnd(p.line);
  std::uint32_t units = 0;
  while (i < end && units < p.character) {
    std::size_t n = utf8SequenceLength(text_, i);
    std::uint32_t u = unitsOf(n, e);
    if (units + u > p.character) break;  // inside a surrogate pair or a UTF-8 sequence
    units += u;
    i += n;
  }
  return i;
}

}  // namespace dsls::protocol

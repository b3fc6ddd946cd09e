#include "protocol/line_index.h"

#include "protocol/line_breaks.h"

#include <algorithm>

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

namespace {

std::uint32_t clamp(std::size_t offset) { return static_cast<std::uint32_t>(std::min<std::size_t>(offset, UINT32_MAX)); }

}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
  lineStarts_.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  forEachLine(text, [&](std::size_t begin, std::size_t) {
    if (begin > 0) lineStarts_.push_back(clamp(begin));
  });
}

void LineIndex::edit(std::string_view newText, std::size_t begin, std::size_t oldEnd, std::string_view inserted) {
  // Whether a line starts at p depends on the bytes at p - 1 and p, so the starts in
  // [begin, oldEnd] may change (a "\n" put right after a "\r" joins the two into one break;
  // a byte put between them splits them) and are found again in the new text; those after
  // oldEnd move.
  const auto first = std::lower_bound(lineStarts_.begin() + 1, lineStarts_.end(), std::max<std::size_t>(begin, 1));
  const auto last = std::upper_bound(first, lineStarts_.end(), oldEnd);
  const std::int64_t delta = static_cast<std::int64_t>(inserted.size()) - static_cast<std::int64_t>(oldEnd - begin);
  std::vector<std::uint32_t> added;
  for (std::size_t p = std::max<std::size_t>(begin, 1); p <= begin + inserted.size(); ++p)
    if (lineStartsAt(newText, p)) added.push_back(clamp(p));
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
  return lineStarts_[l + 1] - breakLengthBefore(text_, lineStarts_[l + 1]);
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

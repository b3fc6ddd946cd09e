#include "protocol/line_breaks.h"

#include <cstring>

namespace dsls::protocol {
namespace {

std::size_t find(std::string_view text, std::size_t from, char c) {
  if (from >= text.size()) return text.size();
  const void* at = std::memchr(text.data() + from, c, text.size() - from);
  return at ? static_cast<std::size_t>(static_cast<const char*>(at) - text.data()) : text.size();
}

LineBreak breakAt(std::string_view text, std::size_t at) {
  if (at >= text.size()) return {text.size(), 0};
  if (text[at] == '\r' && at + 1 < text.size() && text[at + 1] == '\n') return {at, 2};
  return {at, 1};
}

}  // namespace

LineBreak LineBreaks::next(std::size_t from) {
  if (!crKnown_ || cr_ < from) cr_ = find(text_, from, '\r'), crKnown_ = true;
  if (!nlKnown_ || nl_ < from) nl_ = find(text_, from, '\n'), nlKnown_ = true;
  return breakAt(text_, cr_ < nl_ ? cr_ : nl_);
}

LineBreak nextLineBreak(std::string_view text, std::size_t from) { return LineBreaks(text).next(from); }

bool lineStartsAt(std::string_view text, std::size_t offset) {
  if (offset == 0) return true;
  if (offset > text.size()) return false;
  const char before = text[offset - 1];
  return before == '\n' || (before == '\r' && (offset == text.size() || text[offset] != '\n'));
}

std::size_t breakLengthBefore(std::string_view text, std::size_t lineStart) {
  if (lineStart == 0 || lineStart > text.size()) return 0;
  if (text[lineStart - 1] == '\n') return lineStart >= 2 && text[lineStart - 2] == '\r' ? 2 : 1;
  return text[lineStart - 1] == '\r' ? 1 : 0;
}

}  // namespace dsls::protocol

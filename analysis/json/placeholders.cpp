#include "analysis/json/placeholders.h"

#include <algorithm>
#include <array>

namespace dsls::json {
namespace {

bool isNameChar(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

// A closer on the same line as the opener.
std::size_t closeOnLine(std::string_view text, std::size_t from, std::string_view closer) {
  const std::size_t close = text.find(closer, from);
  if (close == std::string_view::npos || text.substr(from, close - from).find('\n') != std::string_view::npos) return 0;
  return close + closer.size();
}

std::size_t nameEnd(std::string_view text, std::size_t from) {
  while (from < text.size() && isNameChar(text[from])) ++from;
  return from;
}

// CONFIG_BATCH_SIZE, CL_1st_MIN, ZERO: upper-case, or capitalised with an underscore.
std::size_t upperNameEnd(std::string_view text, std::size_t at) {
  const std::size_t end = nameEnd(text, at);
  if (end - at < 2 || (end < text.size() && (text[end] == '.' || text[end] == '-'))) return 0;
  const std::string_view name = text.substr(at, end - at);
  const bool upper = std::none_of(name.begin(), name.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  if (!upper && name.find('_') == std::string_view::npos) return 0;
  static constexpr std::array<std::string_view, 6> kLiterals = {"TRUE", "FALSE", "NULL", "NAN", "INF", "NONE"};
  for (std::string_view literal : kLiterals)
    if (text.substr(at, end - at) == literal) return 0;
  return end;
}

}  // namespace

std::size_t placeholderEnd(std::string_view text, std::size_t at) {
  if (at >= text.size()) return 0;
  const std::string_view rest = text.substr(at);
  if (rest.starts_with("${")) return closeOnLine(text, at + 2, "}");
  if (rest.starts_with("{{")) return closeOnLine(text, at + 2, "}}");
  if (rest.front() == '$') {
    const std::size_t end = nameEnd(text, at + 1);
    return end > at + 1 ? end : 0;
  }
  if (rest.front() == '@') {
    const std::size_t end = nameEnd(text, at + 1);
    return end > at + 1 && end < text.size() && text[end] == '@' ? end + 1 : 0;
  }
  if (rest.front() >= 'A' && rest.front() <= 'Z') return upperNameEnd(text, at);
  return 0;
}

bool isPlaceholderString(std::string_view contents) {
  if (contents.empty() || (contents.front() != '$' && contents.front() != '{' && contents.front() != '@')) return false;
  return placeholderEnd(contents, 0) == contents.size();
}

}  // namespace dsls::json

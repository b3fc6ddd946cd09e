#include "analysis/config/json_edits.h"

#include <algorithm>

namespace dsls::config {

using analysis::TextEdit;
using analysis::TextRange;

TextEdit replaceValue(const json::Member& member, std::string newValueText) {
  return {member.value.range, std::move(newValueText)};
}

TextEdit renameKey(const json::Member& member, std::string_view newKey) {
  // Appended, not "..." + std::string: that trips GCC 12's -Wrestrict false positive (PR 105329).
  return {member.keyRange, std::string("\"").append(newKey).append("\"")};
}

namespace {

std::string_view lineIndentBefore(std::string_view text, std::size_t offset) {
  std::size_t lineStart = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
  std::size_t end = lineStart;
  while (end < offset && (text[end] == ' ' || text[end] == '\t')) ++end;
  return text.substr(lineStart, end - lineStart);
}

bool hasNewline(std::string_view text, std::size_t from, std::size_t to) {
  return text.substr(from, to - from).find('\n') != std::string_view::npos;
}

// After a value: skips blanks and comments on the same line; stops at a newline, ',' or '}'.
std::size_t endOfLineTrivia(std::string_view text, std::size_t i) {
  std::size_t last = i;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (text.compare(i, 2, "//") == 0 || c == '#') {
      i = std::min(text.find('\n', i), text.size());
      last = i;
      if (i > 0 && text[i - 1] == '\r') last = i - 1;
      break;
    } else if (text.compare(i, 2, "/*") == 0) {
      std::size_t close = text.find("*/", i + 2);
      if (close == std::string_view::npos || hasNewline(text, i, close)) break;
      i = close + 2;
      last = i;
    } else {
      break;
    }
  }
  return last;
}

}  // namespace

std::vector<TextEdit> insertMember(std::string_view text, const json::Node& object, std::string_view key,
                                   std::string_view valueText) {
  std::string member = std::string("\"").append(key).append("\": ").append(valueText);
  const TextRange body = object.range;  // from '{' to '}' inclusive
  if (object.members().empty()) {
    std::size_t open = body.begin + 1;
    std::size_t close = object.closed && body.end > body.begin ? body.end - 1 : open;
    if (!hasNewline(text, open, close)) return {{{open, close}, member}};
    // A multi-line empty object: indent one level deeper than the line holding '{'.
    std::string_view outer = lineIndentBefore(text, body.begin);
    std::string unit = outer.find('\t') != std::string_view::npos ? "\t" : "  ";
    return {{{open, open}, std::string("\n").append(outer).append(unit).append(member)}};
  }

  const json::Member& last = object.members().back();
  const json::Member& first = object.members().front();
  bool multiLine = hasNewline(text, body.begin, first.keyRange.begin) || hasNewline(text, last.range().end, body.end);
  // Is there a trailing comma after the last member already?
  std::size_t after = last.range().end;
  std::size_t scan = after;
  while (scan < text.size() && (text[scan] == ' ' || text[scan] == '\t' || text[scan] == '\r' || text[scan] == '\n'))
    ++scan;
  bool trailingComma = scan < text.size() && text[scan] == ',';

  if (!multiLine) {
    // One-line object: reuse the separator between the first two members when there is one.
    std::string separator = ", ";
    if (object.members().size() >= 2) {
      std::string_view between = text.substr(first.range().end, object.members()[1].keyRange.begin - first.range().end);
      if (between.find(',') != std::string_view::npos) separator = std::string(between);
    }
    if (trailingComma) return {{{scan + 1, scan + 1}, separator.substr(1) + member + ","}};
    return {{{after, after}, separator + member}};
  }

  std::string indent(lineIndentBefore(text, last.keyRange.begin));
  if (trailingComma) {
    // Keep the trailing-comma style: the new member ends with one too.
    std::size_t lineEnd = endOfLineTrivia(text, scan + 1);
    return {{{lineEnd, lineEnd}, "\n" + indent + member + ","}};
  }
  std::size_t lineEnd = endOfLineTrivia(text, after);
  if (lineEnd == after) return {{{after, after}, ",\n" + indent + member}};
  // A comment follows the last value on its line: the comma goes before it, the member after it.
  return {{{after, after}, ","}, {{lineEnd, lineEnd}, "\n" + indent + member}};
}

}  // namespace dsls::config

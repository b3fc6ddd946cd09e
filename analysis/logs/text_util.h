// Small string helpers shared by the log analyser. Everything works on raw
// bytes: logs are not guaranteed to be valid UTF-8.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dsls::logs::text {

constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool isWordChar(char c) { return isDigit(c) || isAlpha(c) || c == '_'; }
inline bool isBlank(char c) { return c == ' ' || c == '\t'; }

std::string_view trimLeft(std::string_view s);
std::string_view trimRight(std::string_view s);
std::string_view trim(std::string_view s);

// Parses an optionally signed decimal integer that fills all of `s`.
std::optional<long long> parseInt(std::string_view s);
// Parses a leading optionally signed integer; advances `pos` past it.
std::optional<long long> parseIntAt(std::string_view s, std::size_t& pos);

// Copy of `in` that is valid UTF-8 (invalid bytes become U+FFFD) and at most
// about `maxBytes` long; a cut is marked with "…". Control characters other
// than tab become spaces so the text is safe in JSON, Markdown and SVG.
std::string sanitize(std::string_view in, std::size_t maxBytes);

// Removes ANSI escape sequences (colour codes) when the line has any; returns
// either `line` itself or a view of `scratch`.
std::string_view stripAnsi(std::string_view line, std::string& scratch);

// Digits folded to '0': for memos whose outcome holds for any text that differs from the one
// remembered in its digits alone. Eight bytes at a time, in parallel.
std::uint64_t foldDigits(std::uint64_t bytes);
constexpr char foldDigit(char c) { return isDigit(c) ? '0' : c; }
void assignFolded(std::string& out, std::string_view s);
// Whether `s` starts with `folded` (a text with its digits as '0') once its own digits are.
bool startsWithFolded(std::string_view s, std::string_view folded);

// Escapes &, <, >, " for XML/HTML text and attributes.
std::string xmlEscape(std::string_view s);

}  // namespace dsls::logs::text

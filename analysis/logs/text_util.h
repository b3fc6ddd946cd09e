// Small string helpers shared by the log analyser. Everything works on raw
// bytes: logs are not guaranteed to be valid UTF-8.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
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
// remembered in its digits alone. Eight bytes at a time, in parallel: a byte is a digit when
// it is below 0x80 and, xor '0', below 10 (adding 0x76 to its low seven bits leaves bit 7 clear).
constexpr std::uint64_t foldDigits(std::uint64_t w) {
  constexpr std::uint64_t k01 = 0x0101010101010101ull, k80 = 0x8080808080808080ull;
  const std::uint64_t t = w ^ (0x30 * k01);
  const std::uint64_t digit = ~((((t & ~k80) + 0x76 * k01)) | t) & k80;
  const std::uint64_t mask = digit | (digit - (digit >> 7));  // 0xFF in each digit's byte
  return w ^ (t & mask);
}
constexpr char foldDigit(char c) { return isDigit(c) ? '0' : c; }
void assignFolded(std::string& out, std::string_view s);

// Whether `s` starts with `folded` (a text with its digits as '0') once its own digits are.
inline bool startsWithFolded(std::string_view s, std::string_view folded) {
  const std::size_t n = folded.size();
  if (s.size() < n) return false;
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if (foldDigit(s[i]) != folded[i]) return false;
    return true;
  }
  const auto load8 = [](const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  };
  for (std::size_t i = 0; i + 8 <= n; i += 8)
    if (foldDigits(load8(s.data() + i)) != load8(folded.data() + i)) return false;
  return foldDigits(load8(s.data() + n - 8)) == load8(folded.data() + n - 8);
}

// Escapes &, <, >, " for XML/HTML text and attributes.
std::string xmlEscape(std::string_view s);

}  // namespace dsls::logs::text

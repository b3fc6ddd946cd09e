// Small string helpers shared by the log analyser. Everything works on raw
// bytes: logs are not guaranteed to be valid UTF-8.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
// The numbers of a comma-separated list with ranges ("0-3,8, 10-11"), at most `max` of them;
// a part that is no number or range is skipped.
std::vector<int> parseIntList(std::string_view list, std::size_t max);

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
// Eight bytes from `p` as one word (unaligned).
inline std::uint64_t load8(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
void assignFolded(std::string& out, std::string_view s);

// Whether `s` starts with `folded` (a text with its digits as '0') once its own digits are.
// Eight bytes at a time; sixteen where SSE2 is there (any x86-64).
inline bool startsWithFoldedWords(std::string_view s, std::string_view folded) {
  const std::size_t n = folded.size();
  if (s.size() < n) return false;
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if (foldDigit(s[i]) != folded[i]) return false;
    return true;
  }
  for (std::size_t i = 0; i + 8 <= n; i += 8)
    if (foldDigits(load8(s.data() + i)) != load8(folded.data() + i)) return false;
  return foldDigits(load8(s.data() + n - 8)) == load8(folded.data() + n - 8);
}

inline bool startsWithFolded(std::string_view s, std::string_view folded) {
#if defined(__SSE2__)
  const std::size_t n = folded.size();
  if (n < 16 || s.size() < n) return startsWithFoldedWords(s, folded);
  const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
  const auto sameAt = [&](std::size_t i) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    const __m128i t = _mm_sub_epi8(x, zero);
    const __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(t, nine), t);  // t below 10, unsigned
    const __m128i f = _mm_or_si128(_mm_andnot_si128(digit, x), _mm_and_si128(digit, zero));
    const __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i*>(folded.data() + i));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(f, k)) == 0xFFFF;
  };
  for (std::size_t i = 0; i + 16 <= n; i += 16)
    if (!sameAt(i)) return false;
  return sameAt(n - 16);
#else
  return startsWithFoldedWords(s, folded);
#endif
}

// Escapes &, <, >, " for XML/HTML text and attributes.
std::string xmlEscape(std::string_view s);

}  // namespace dsls::logs::text

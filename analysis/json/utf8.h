// UTF-8 helpers for the parser: validating input bytes and encoding code points.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dsls::json::utf8 {

// Length of the well-formed UTF-8 sequence starting at text[pos], or 0 when the
// bytes there are not one (stray continuation byte, overlong form, surrogate,
// truncated sequence, above U+10FFFF). Stores the code point in *codePoint.
std::size_t sequenceLength(std::string_view text, std::size_t pos, char32_t* codePoint = nullptr);

// Appends the UTF-8 form of a code point; surrogates and values above U+10FFFF
// become U+FFFD so the result is always valid UTF-8.
void append(std::string& out, char32_t codePoint);

inline constexpr char32_t kReplacement = 0xFFFD;

// The index of the first byte at or after `pos` that is not ASCII (text.size() when none);
// many bytes at a time, as most JSON and log text is ASCII.
std::size_t skipAscii(std::string_view text, std::size_t pos);

// A copy with every byte that is not part of valid UTF-8 replaced by U+FFFD.
std::string sanitized(std::string_view text);

}  // namespace dsls::json::utf8

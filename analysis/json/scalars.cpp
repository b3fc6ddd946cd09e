#include "analysis/json/scalars.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "analysis/json/utf8.h"

namespace dsls::json {
namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Four hex digits at text[pos], or -1.
long hex4(std::string_view text, std::size_t pos, std::size_t end) {
  if (end < pos + 4) return -1;
  long value = 0;
  for (std::size_t i = pos; i < pos + 4; ++i) {
    const int d = hexDigit(text[i]);
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::optional<std::string_view> plainString(std::string_view text, const Token& token) {
  if (!token.plain || !token.closed) return std::nullopt;
  return text.substr(token.begin + 1, token.end - token.begin - 2);
}

std::string decodeString(std::string_view text, const Token& token, ErrorSink& errors) {
  std::string out;
  const std::size_t end = token.closed ? token.end - 1 : token.end;
  bool controlReported = false;
  std::size_t i = token.begin + 1;
  while (i < end) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\\') {
      if (i + 1 >= end) {
        errors.add({i, i + 1}, "a string cannot end with a lone '\\'");
        break;
      }
      const char e = text[i + 1];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const long unit = hex4(text, i + 2, end);
          if (unit < 0) {
            errors.add({i, std::min(i + 6, end)}, "'\\u' must be followed by four hex digits");
            out += e;
            break;
          }
          char32_t cp = static_cast<char32_t>(unit);
          i += 6;
          // A high surrogate followed by an escaped low surrogate is one character;
          // unpaired surrogates decode to U+FFFD.
          if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < end && text[i] == '\\' && text[i + 1] == 'u') {
            const long low = hex4(text, i + 2, end);
            if (low >= 0xDC00 && low <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (static_cast<char32_t>(low) - 0xDC00);
              i += 6;
            }
          }
          utf8::append(out, cp);
          continue;
        }
        default: {
          const std::size_t n = static_cast<unsigned char>(e) >= 0x80 ? utf8::sequenceLength(text, i + 1) : 1;
          const std::size_t stop = i + 1 + (n == 0 ? 1 : n);
          errors.add({i, stop}, "invalid escape '\\" + quoteSource(text.substr(i + 1, stop - i - 1)) +
                                    "' in a string; valid ones are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
          out += utf8::sanitized(text.substr(i + 1, stop - i - 1));
          i = stop;
          continue;
        }
      }
      i += 2;
    } else if (c < 0x20) {
      if (!controlReported) {
        char code[8];
        std::snprintf(code, sizeof code, "%04X", c);
        errors.add({i, i + 1},
                   std::string("control character U+") + code + " must be written as an escape inside a string");
        controlReported = true;
      }
      out += static_cast<char>(c);
      ++i;
    } else if (c >= 0x80) {
      const std::size_t n = utf8::sequenceLength(text, i);
      if (n == 0) {
        utf8::append(out, utf8::kReplacement);
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
    } else {
      out += static_cast<char>(c);
      ++i;
    }
  }
  return out;
}

bool parseNumber(std::string_view word, double& value) {
  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  std::size_t i = 0;
  const std::size_t n = word.size();
  if (i < n && word[i] == '-') ++i;
  if (i >= n || !isDigit(word[i])) return false;
  if (word[i] == '0') {
    ++i;
  } else {
    while (i < n && isDigit(word[i])) ++i;
  }
  if (i < n && word[i] == '.') {
    ++i;
    if (i >= n || !isDigit(word[i])) return false;
    while (i < n && isDigit(word[i])) ++i;
  }
  std::size_t exponent = n;
  if (i < n && (word[i] == 'e' || word[i] == 'E')) {
    exponent = i;
    ++i;
    if (i < n && (word[i] == '+' || word[i] == '-')) ++i;
    if (i >= n || !isDigit(word[i])) return false;
    while (i < n && isDigit(word[i])) ++i;
  }
  if (i != n) return false;

  const auto result = std::from_chars(word.data(), word.data() + n, value);
  if (result.ec == std::errc::result_out_of_range) {
    const bool negative = word[0] == '-';
    const std::size_t digits = word[0] == '-' ? 1 : 0;
    const bool tiny = exponent < n ? word[exponent + 1] == '-' : word[digits] == '0';
    value = tiny ? 0.0 : std::numeric_limits<double>::infinity();
    if (negative) value = -value;
  } else if (result.ec != std::errc()) {
    return false;
  }
  return true;
}

bool readLiteral(std::string_view word, Node& n) {
  if (word == "true" || word == "false") {
    n.kind = Kind::Bool;
    n.boolean = word == "true";
    return true;
  }
  if (word == "null") {
    n.kind = Kind::Null;
    return true;
  }
  if (!parseNumber(word, n.number)) return false;
  n.kind = Kind::Number;
  n.isInteger = std::isfinite(n.number) && std::trunc(n.number) == n.number;
  return true;
}

}  // namespace dsls::json

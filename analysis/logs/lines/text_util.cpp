#include "analysis/logs/lines/text_util.h"

#include <algorithm>

#include <cstring>

namespace dsls::logs::text {

std::string_view trimLeft(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && isBlank(s[i])) ++i;
  return s.substr(i);
}

std::string_view trimRight(std::string_view s) {
  std::size_t n = s.size();
  while (n > 0 && (isBlank(s[n - 1]) || s[n - 1] == '\r')) --n;
  return s.substr(0, n);
}

std::string_view trim(std::string_view s) { return trimRight(trimLeft(s)); }

std::optional<long long> parseIntAt(std::string_view s, std::size_t& pos) {
  std::size_t i = pos;
  bool negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
    negative = s[i] == '-';
    ++i;
  }
  if (i >= s.size() || !isDigit(s[i])) return std::nullopt;
  long long value = 0;
  std::size_t digits = 0;
  while (i < s.size() && isDigit(s[i])) {
    // Saturate instead of overflowing on absurd inputs.
    if (digits < 18) value = value * 10 + (s[i] - '0');
    ++digits;
    ++i;
  }
  pos = i;
  return negative ? -value : value;
}

std::vector<int> parseIntList(std::string_view list, std::size_t max) {
  std::vector<int> out;
  while (!list.empty() && out.size() < max) {
    const std::size_t comma = list.find(',');
    const std::string_view part = trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    const std::size_t dash = part.find('-', 1);
    const auto first = parseInt(part.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : parseInt(part.substr(dash + 1));
    if (!first || !last || *first < 0 || *last > (1 << 30)) continue;
    for (long long n = *first; n <= *last && out.size() < max; ++n) out.push_back(static_cast<int>(n));
  }
  return out;
}

std::optional<long long> parseInt(std::string_view s) {
  std::size_t pos = 0;
  auto v = parseIntAt(s, pos);
  if (!v || pos != s.size()) return std::nullopt;
  return v;
}

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid.
std::size_t utf8SequenceLength(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return 1;
  std::size_t len = 0;
  std::uint32_t min = 0;
  if ((b0 & 0xE0) == 0xC0) { len = 2; min = 0x80; }
  else if ((b0 & 0xF0) == 0xE0) { len = 3; min = 0x800; }
  else if ((b0 & 0xF8) == 0xF0) { len = 4; min = 0x10000; }
  else return 0;
  if (i + len > s.size()) return 0;
  std::uint32_t cp = b0 & (0x7F >> len);
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string sanitize(std::string_view in, std::size_t maxBytes) {
  std::string out;
  out.reserve(std::min(in.size(), maxBytes) + 4);
  std::size_t i = 0;
  while (i < in.size()) {
    if (out.size() >= maxBytes) {
      out += "\xE2\x80\xA6";  // …
      break;
    }
    const std::size_t len = utf8SequenceLength(in, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    if (len == 1) {
      const char c = in[i];
      const auto u = static_cast<unsigned char>(c);
      out += (u < 0x20 && c != '\t') || u == 0x7F ? ' ' : c;
    } else {
      out.append(in.substr(i, len));
    }
    i += len;
  }
  return out;
}

std::string_view stripAnsi(std::string_view line, std::string& scratch) {
  if (std::memchr(line.data(), '\x1b', line.size()) == nullptr) return line;
  scratch.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] != '\x1b') {
      scratch += line[i++];
      continue;
    }
    ++i;
    if (i < line.size() && line[i] == '[') {
      // CSI: parameters and intermediates up to a final byte in @..~
      ++i;
      while (i < line.size() && !(line[i] >= '@' && line[i] <= '~')) ++i;
      if (i < line.size()) ++i;
    } else if (i < line.size()) {
      ++i;  // two-byte escape
    }
  }
  return scratch;
}

void assignFolded(std::string& out, std::string_view s) {
  out.resize(s.size());
  std::transform(s.begin(), s.end(), out.begin(), foldDigit);
}

std::string xmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace dsls::logs::text

#include "analysis/core/version.h"

#include <cctype>

namespace dsls::analysis {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Reads a run of digits into `out`; false when there is none or it is too long
// to be a release number (guards int overflow on hostile input).
bool readNumber(std::string_view s, std::size_t& pos, int& out) {
  std::size_t start = pos;
  int value = 0;
  while (pos < s.size() && isDigit(s[pos])) {
    if (pos - start >= 9) return false;
    value = value * 10 + (s[pos] - '0');
    ++pos;
  }
  if (pos == start) return false;
  out = value;
  return true;
}

// What may follow the numeric part: nothing, a local label ("+cu118"), a
// pre/post/dev label ("rc1", "-rc1", ".dev0", "a2", ".post1").
bool isAcceptedSuffix(std::string_view rest) {
  if (rest.empty()) return true;
  char first = rest.front();
  if (first == '+') return rest.size() > 1;
  if (first == '-' || first == '.') rest.remove_prefix(1);
  if (rest.empty() || !isAlpha(rest.front())) return false;
  for (char c : rest) {
    if (!isAlpha(c) && !isDigit(c) && c != '.' && c != '+' && c != '-' && c != '_') return false;
  }
  return true;
}

}  // namespace

std::optional<Version> Version::parse(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (!text.empty() && (text.front() == 'v' || text.front() == 'V')) text.remove_prefix(1);

  Version v;
  int* parts[] = {&v.major, &v.minor, &v.patch};
  std::size_t pos = 0;
  int count = 0;
  while (count < 3) {
    if (!readNumber(text, pos, *parts[count])) return std::nullopt;
    ++count;
    if (pos < text.size() && text[pos] == '.' && pos + 1 < text.size() && isDigit(text[pos + 1])) {
      ++pos;
      continue;
    }
    break;
  }
  // A fourth numeric component ("1.2.3.4") is not a release number we know.
  if (count == 3 && pos + 1 < text.size() && text[pos] == '.' && isDigit(text[pos + 1])) return std::nullopt;
  // A bare "2" is too ambiguous to be a version; "2.3" is fine.
  if (count < 2) return std::nullopt;
  if (!isAcceptedSuffix(text.substr(pos))) return std::nullopt;
  return v;
}

std::string Version::str() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace dsls::analysis

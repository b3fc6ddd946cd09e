#include "analysis/python/literals.h"

#include <cctype>
#include <charconv>
#include <cstdint>

#include <fmt/format.h>

namespace dsls::python {
namespace {

bool isJsonNumber(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    return i > start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') ++i;
  else if (!digits()) return false;
  if (i < s.size() && s[i] == '.' && (++i, !digits())) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

std::optional<std::string> radixNumber(std::string_view digits, int base) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return std::to_string(value);
}

std::string withoutLeadingZeros(std::string s) {
  std::size_t zeros = 0;
  while (zeros + 1 < s.size() && s[zeros] == '0' && std::isdigit(static_cast<unsigned char>(s[zeros + 1]))) ++zeros;
  return s.substr(zeros);
}

std::optional<char> escaped(char c) {
  switch (c) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case '\\': case '\'': case '"': return c;
    case '\n': return '\0';  // a line continuation: nothing
    default: return std::nullopt;
  }
}

void appendJsonChar(std::string& out, char c) {
  if (c == '"' || c == '\\') out.append(1, '\\').append(1, c);
  else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
  else out += c;
}

}  // namespace

std::optional<std::string> jsonNumber(std::string_view python) {
  std::string s;
  for (char c : python)
    if (c != '_') s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o' || s[1] == 'b'))
    return radixNumber(std::string_view(s).substr(2), s[1] == 'x' ? 16 : s[1] == 'o' ? 8 : 2);
  if (s.starts_with('.')) s = std::string("0").append(s);
  if (auto dot = s.find('.'); dot != std::string::npos && (dot + 1 == s.size() || s[dot + 1] == 'e'))
    s = s.substr(0, dot + 1).append("0").append(s.substr(dot + 1));
  s = withoutLeadingZeros(std::move(s));
  if (!isJsonNumber(s)) return std::nullopt;
  return s;
}

std::optional<std::string> jsonString(std::string_view python) {
  std::size_t quote = python.find_first_of("'\"");
  if (quote == std::string_view::npos) return std::nullopt;
  std::string prefix;
  for (char c : python.substr(0, quote)) prefix += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (prefix.find_first_not_of("ur") != std::string::npos) return std::nullopt;  // f, b
  const bool raw = prefix.find('r') != std::string::npos;
  const std::size_t quoteLength = python.substr(quote).starts_with(std::string(3, python[quote])) ? 3 : 1;
  if (python.size() < quote + 2 * quoteLength) return std::nullopt;
  std::string_view body = python.substr(quote + quoteLength, python.size() - quote - 2 * quoteLength);
  std::string out = "\"";
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\\' && !raw) {
      if (i + 1 >= body.size()) return std::nullopt;
      auto e = escaped(body[++i]);
      if (!e) return std::nullopt;
      if (*e == '\0') continue;
      c = *e;
    }
    appendJsonChar(out, c);
  }
  out += '"';
  return out;
}

std::string pythonSpelling(std::string_view json) {
  std::string out;
  bool inString = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (inString) {
      out += c;
      if (c == '\\' && i + 1 < json.size()) out += json[++i];
      else if (c == '"') inString = false;
      continue;
    }
    const std::string_view rest = json.substr(i);
    const bool wordStart = i == 0 || !std::isalnum(static_cast<unsigned char>(json[i - 1]));
    if (wordStart && rest.starts_with("true")) out += "True", i += 3;
    else if (wordStart && rest.starts_with("false")) out += "False", i += 4;
    else if (wordStart && rest.starts_with("null")) out += "None", i += 3;
    else out += c;
    inString = c == '"';
  }
  return out;
}

}  // namespace dsls::python

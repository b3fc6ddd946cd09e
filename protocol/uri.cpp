#include "protocol/uri.h"

#include <cctype>

namespace dsls::protocol {
namespace {

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percentDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      int hi = i + 1 < s.size() ? hexValue(s[i + 1]) : -1;
      int lo = i + 2 < s.size() ? hexValue(s[i + 2]) : -1;
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

}  // namespace

std::optional<std::string> uriToPath(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.size() < kScheme.size()) return std::nullopt;
  for (std::size_t i = 0; i < kScheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(uri[i])) != kScheme[i]) return std::nullopt;
  uri.remove_prefix(kScheme.size());
  // Skip an authority ("localhost" or empty) up to the path.
  std::size_t slash = uri.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  uri.remove_prefix(slash);
  if (auto q = uri.find_first_of("?#"); q != std::string_view::npos) uri = uri.substr(0, q);
  return percentDecode(uri);
}

std::string pathToUri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "file://";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);  // a byte, for isalnum and the hex digits
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string uriFileName(std::string_view uri) {
  if (auto q = uri.find_first_of("?#"); q != std::string_view::npos) uri = uri.substr(0, q);
  if (auto slash = uri.find_last_of('/'); slash != std::string_view::npos) uri.remove_prefix(slash + 1);
  else if (auto colon = uri.find(':'); colon != std::string_view::npos) uri.remove_prefix(colon + 1);
  return percentDecode(uri);
}

}  // namespace dsls::protocol

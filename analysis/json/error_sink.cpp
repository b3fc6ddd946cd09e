#include "analysis/json/error_sink.h"

#include <cstdio>

#include "analysis/json/utf8.h"

namespace dsls::json {

void ErrorSink::add(analysis::TextRange range, std::string message, bool hjsonAccepts) {
  if (full_) return;
  if (!out_.empty() && out_.back().range.begin == range.begin) return;
  if (out_.size() >= limit_) {
    full_ = true;
    out_.push_back({range, "too many syntax errors; the rest are not listed", false});
    return;
  }
  out_.push_back({range, std::move(message), hjsonAccepts});
}

std::string quoteSource(std::string_view source, std::size_t maxBytes) {
  std::string out;
  std::size_t i = 0;
  while (i < source.size()) {
    if (out.size() >= maxBytes) {
      out += "\u2026";
      break;
    }
    const auto c = static_cast<unsigned char>(source[i]);
    if (c >= 0x20 && c < 0x7F) {
      out.push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    const std::size_t n = c >= 0x80 ? utf8::sequenceLength(source, i) : 0;
    if (n > 0) {
      out.append(source.substr(i, n));
      i += n;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
      ++i;
    }
  }
  return out;
}

}  // namespace dsls::json

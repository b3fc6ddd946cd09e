// Small helpers shared by the json unit tests.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "analysis/json/document.h"

namespace dsls::json::test {

inline std::string_view slice(std::string_view text, analysis::TextRange r) {
  return text.substr(r.begin, r.end - r.begin);
}

// Offset of the n-th (0-based) occurrence of `needle`; fails loudly when absent.
inline std::size_t offsetOf(std::string_view text, std::string_view needle, int n = 0) {
  std::size_t pos = text.find(needle);
  while (n-- > 0 && pos != std::string_view::npos) pos = text.find(needle, pos + 1);
  if (pos == std::string_view::npos) throw std::string("not in text: ") + std::string(needle);
  return pos;
}

inline bool hasErrorContaining(const Document& doc, std::string_view fragment) {
  for (const SyntaxError& e : doc.errors)
    if (e.message.find(fragment) != std::string::npos) return true;
  return false;
}

}  // namespace dsls::json::test

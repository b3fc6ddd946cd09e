// A document of another language that writes ds_configs (a Python source, a shell script),
// through the facade on arbitrary text: the extractor, the projection, the source map and every
// feature that maps back. Properties: every range and edit lies inside the host text; fix-all
// applies without overlap and the result analyses again.
#pragma once

#include "tests/fuzz/fuzz_check.h"
#include "analysis/facade/document_analysis.h"
#include "analysis/facade/features.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace dsls::fuzz {

namespace detail {

using dsls::analysis::TextRange;

inline void checkRange(TextRange r, std::size_t size) { CHECK(r.begin <= r.end && r.end <= size); }

inline std::string applyEdits(std::string text, std::vector<dsls::analysis::TextEdit> edits) {
  std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) { return a.range.begin > b.range.begin; });
  std::size_t limit = text.size();
  for (const auto& e : edits) {
    detail::checkRange(e.range, text.size());
    CHECK(e.range.end <= limit);
    text.replace(e.range.begin, e.range.end - e.range.begin, e.newText);
    limit = e.range.begin;
  }
  return text;
}

}  // namespace detail

inline int fuzzHostDocument(const std::uint8_t* data, std::size_t size, const char* name, const char* languageId) {
  if (size < 1) return 0;
  const unsigned char probe = data[0];  // where the cursor features probe
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  dsls::analysis::Settings settings;
  settings.deepspeedVersion = "0.14.2";
  auto analysis = dsls::analysis::analyzeDocument(name, languageId, text, settings);
  const std::size_t n = text.size();
  for (const auto& f : analysis->findings) {
    detail::checkRange(f.range, n);
    for (const auto& r : f.related) detail::checkRange(r.range, n);
    for (const auto& fix : f.fixes)
      for (const auto& e : fix.edits) detail::checkRange(e.range, n);
  }
  const std::size_t step = std::max<std::size_t>(1, n / (8 + probe % 24));
  for (std::size_t o = probe % step; o <= n; o += step) {
    if (auto hover = dsls::analysis::hoverAt(*analysis, o)) detail::checkRange(hover->range, n);
    for (const auto& a : dsls::analysis::actionsFor(*analysis, {o, std::min(n, o + probe % 16)}))
      for (const auto& e : a.edits) detail::checkRange(e.range, n);
  }
  for (const auto& h : dsls::analysis::inlayHints(*analysis, {0, n})) CHECK(h.offset <= n);
  if (auto all = dsls::analysis::fixAll(*analysis)) {
    std::string fixed = detail::applyEdits(text, all->edits);
    auto again = dsls::analysis::analyzeDocument(name, languageId, fixed, settings);
    for (const auto& f : again->findings) detail::checkRange(f.range, fixed.size());
  }
  return 0;
}

}  // namespace dsls::fuzz

// The ds_config analysis behind the editor (analysis/facade) on arbitrary text:
// diagnostics, hover, completion, code actions, fix-all, inlay hints, outline, links.
// Properties: every range and edit lies inside the text; fixes apply without overlap;
// applying fix-all and analysing again does not fail.
#include "tests/fuzz/fuzz_check.h"
#include "analysis/facade/diagnose_text.h"
#include "analysis/facade/document_analysis.h"
#include "analysis/facade/features.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <nlohmann/json.hpp>

namespace {

using dsls::analysis::TextRange;


void checkRange(TextRange r, std::size_t size) { CHECK(r.begin <= r.end && r.end <= size); }

void checkSymbols(const std::vector<dsls::analysis::SymbolInfo>& symbols, std::size_t size) {
  for (const auto& s : symbols) {
    checkRange(s.range, size);
    checkRange(s.selection, size);
    checkSymbols(s.children, size);
  }
}

std::string applyEdits(std::string text, std::vector<dsls::analysis::TextEdit> edits) {
  std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) { return a.range.begin > b.range.begin; });
  std::size_t limit = text.size();
  for (const auto& e : edits) {
    checkRange(e.range, text.size());
    CHECK(e.range.end <= limit);  // fix-all promises no overlapping edits
    text.replace(e.range.begin, e.range.end - e.range.begin, e.newText);
    limit = e.range.begin;
  }
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // Byte 0 chooses the settings; byte 1 where the cursor features probe.
  const unsigned char mode = data[0];
  const unsigned char probe = data[1];
  std::string text(reinterpret_cast<const char*>(data) + 2, size - 2);
  dsls::analysis::Settings settings;
  if (mode & 1) settings.deepspeedVersion = (mode & 2) ? "0.9.5" : "0.16.4";
  if (mode & 4) settings.worldSize = (mode >> 4) + 1;
  if (mode & 8) settings.launcher = dsls::analysis::Launcher::HfTrainer;

  auto analysis = dsls::analysis::analyzeDocument("file:///w/ds_config.json", "json", text, settings);
  const std::size_t n = text.size();
  for (const auto& f : analysis->findings) checkRange(f.range, n);

  const std::size_t step = std::max<std::size_t>(1, n / (8 + probe % 24));
  for (std::size_t o = probe % step; o <= n; o += step) {
    if (auto hover = dsls::analysis::hoverAt(*analysis, o)) checkRange(hover->range, n);
    for (const auto& c : dsls::analysis::completeAt(*analysis, o, probe & 1)) checkRange(c.replace, n);
    for (const auto& a : dsls::analysis::actionsFor(*analysis, {o, std::min(n, o + probe % 16)}, probe & 2))
      for (const auto& e : a.edits) checkRange(e.range, n);
  }
  for (const auto& h : dsls::analysis::inlayHints(*analysis, {0, n})) CHECK(h.offset <= n);
  checkSymbols(dsls::analysis::outline(*analysis), n);
  for (const auto& l : dsls::analysis::links(*analysis)) checkRange(l.range, n);

  if (auto all = dsls::analysis::fixAll(*analysis)) {
    std::string fixed = applyEdits(text, all->edits);
    auto again = dsls::analysis::analyzeDocument("file:///w/ds_config.json", "json", fixed, settings);
    for (const auto& f : again->findings) checkRange(f.range, fixed.size());
  }
  // The same text pasted into dsls.diagnoseText must also produce a reply.
  if (mode & 0x80) CHECK(!dsls::analysis::diagnoseText(text).is_null());
  return 0;
}

// The tolerant JSON parser (analysis/json) on arbitrary text.
// Properties: every range lies inside the text and is ordered; objects and arrays
// nest no deeper than the limit; parsing is deterministic; a document reused after a
// one-character edit (json/reparse.h) is the one a full parse of the edited text gives.
#include "tests/fuzz/fuzz_check.h"
#include "analysis/json/document.h"
#include "analysis/json/reparse.h"
#include "tests/unit/json/document_difference.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {


void checkRange(dsls::analysis::TextRange r, std::size_t size) { CHECK(r.begin <= r.end && r.end <= size); }

void checkNode(const dsls::json::Node& n, std::size_t size, std::size_t depth, std::size_t maxDepth) {
  checkRange(n.range, size);
  CHECK(depth <= maxDepth + 1);
  for (const auto& m : n.members()) {
    checkRange(m.keyRange, size);
    checkRange(m.range(), size);
    CHECK(m.range().begin <= m.keyRange.begin);
    checkNode(m.value, size, depth + 1, maxDepth);
  }
  for (const auto& e : n.elements()) checkNode(e, size, depth + 1, maxDepth);
}

// Four one-character edits at a place the text picks: each reused document must equal the
// full parse of the edited text.
void checkReuse(std::string_view text, const dsls::json::Document& doc, const dsls::json::ParseOptions& options) {
  if (text.empty()) return;
  const std::size_t at = (text.size() * 2654435761u + static_cast<unsigned char>(text[text.size() / 2])) % text.size();
  const std::string original(text);
  for (int edit = 0; edit < 4; ++edit) {
    std::string after = original;
    // One character at a time through iterators: insert(pos, "1") trips GCC 12's -Wrestrict (PR 105329).
    const auto where = after.begin() + static_cast<std::ptrdiff_t>(at);
    if (edit == 0) after.insert(where, '1');
    if (edit == 1) after[at] = '0';
    if (edit == 2) after.erase(where);
    if (edit == 3) after.insert(where, 'e');
    if (auto reused = dsls::json::reparseAfterEdit(doc, text, after, options))
      CHECK(dsls::json::test::Difference().between(*reused, dsls::json::parse(after, options)).empty());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks small limits now and then, to reach the depth and error caps.
  const unsigned char mode = data[0];
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  dsls::json::ParseOptions options;
  if (mode & 1) options.maxDepth = mode >> 3;
  if (mode & 2) options.maxErrors = mode >> 4;
  if (mode & 4) options.maxDepth = 2000;  // above the hard limit: must clamp

  auto doc = dsls::json::parse(text, options);
  const std::size_t depthLimit = std::min(options.maxDepth, dsls::json::kMaxDepthLimit);
  if (doc.root) checkNode(*doc.root, text.size(), 0, depthLimit);
  for (const auto& e : doc.errors) checkRange(e.range, text.size());
  for (const auto& c : doc.comments) checkRange(c, text.size());
  for (const auto& c : doc.trailingCommas) checkRange(c, text.size());
  for (const auto& d : doc.duplicates) {
    checkRange(d.first, text.size());
    checkRange(d.duplicate, text.size());
  }
  CHECK(doc.errors.size() <= options.maxErrors + 1);

  checkReuse(text, doc, options);

  auto again = dsls::json::parse(text, options);
  CHECK(again.errors.size() == doc.errors.size() && again.root.has_value() == doc.root.has_value());
  return 0;
}

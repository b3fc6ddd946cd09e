// Position conversion (protocol/line_index.h) and incremental edits (lsp/document.h).
// Properties, in each of UTF-8, UTF-16 and UTF-32:
//  - a character boundary survives offset -> position -> offset;
//  - any position maps to an offset that maps back to itself (idempotent clamping);
//  - Document::apply equals replacing the byte range the two positions convert to, and
//    refuses (text unchanged, a reason given) exactly the ranges past the last line or reversed.
#include "tests/fuzz/fuzz_check.h"
#include "lsp/document.h"
#include "protocol/line_index.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

using dsls::protocol::LineIndex;
using dsls::protocol::Position;
using dsls::protocol::PositionEncoding;


// Byte offsets where a character starts, walking each line as the index does.
std::vector<bool> boundaries(std::string_view text) {
  std::vector<bool> at(text.size() + 1, false);
  std::size_t i = 0;
  while (i < text.size()) {
    at[i] = true;
    i += dsls::protocol::utf8SequenceLength(text, i);
  }
  at[text.size()] = true;
  return at;
}

struct Reader {
  std::string_view data;
  std::size_t pos = 0;
  std::uint32_t next() {
    std::uint32_t v = 0;
    for (int k = 0; k < 2 && pos < data.size(); ++k) v = v << 8 | static_cast<unsigned char>(data[pos++]);
    return v;
  }
  bool more() const { return pos < data.size(); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  // Text up to the first NUL; what follows drives positions and edits.
  std::size_t split = input.find('\0');
  std::string_view text = input.substr(0, split);
  Reader script{split == std::string_view::npos ? std::string_view{} : input.substr(split + 1)};

  const LineIndex index(text);
  const auto at = boundaries(text);
  for (auto enc : {PositionEncoding::Utf8, PositionEncoding::Utf16, PositionEncoding::Utf32}) {
    for (std::size_t o = 0; o <= text.size(); ++o) {
      Position p = index.position(o, enc);
      std::size_t back = index.offset(p, enc);
      CHECK(back <= o);
      CHECK(p.line == index.lineOf(o));
      // "\r" before "\n" belongs to the line break: an offset between them maps to the "\r".
      bool insideBreak = o > 0 && o < text.size() && text[o - 1] == '\r' && text[o] == '\n';
      if (at[o] && !insideBreak) CHECK(back == o);
      CHECK(index.position(back, enc) == index.position(index.offset(p, enc), enc));
    }
  }

  dsls::lsp::Document doc("file:///fuzz.json", "json", 1, std::string(text));
  int edits = 0;
  while (script.more() && edits++ < 16) {
    auto enc = static_cast<PositionEncoding>(script.next() % 3);
    Position a{script.next() % 64, script.next() % 128};
    Position b{script.next() % 64, script.next() % 128};
    std::string insert(script.next() % 5, "x\n\xC3\xA9\r"[script.next() % 5]);

    std::string expected = doc.text();
    const LineIndex& lines = doc.lines();
    bool reversed = b.line < a.line || (b.line == a.line && b.character < a.character);
    bool refused = b.line >= lines.lineCount() || reversed;
    if (!refused) {
      std::size_t begin = lines.offset(a, enc), end = lines.offset(b, enc);
      expected.replace(begin, end - begin, insert);
    }

    dsls::protocol::ContentChange change;
    change.range = dsls::protocol::Range{a, b};
    change.text = insert;
    std::string reason = doc.apply(change, enc);
    CHECK(reason.empty() == !refused);
    CHECK(doc.text() == expected);
    // The incremental index is the index of the new text (a "\n" after a "\r" joins them).
    const LineIndex fresh(doc.text());
    CHECK(doc.lines().lineCount() == fresh.lineCount());
    for (std::uint32_t line = 0; line < fresh.lineCount(); ++line) {
      CHECK(doc.lines().lineStart(line) == fresh.lineStart(line));
      CHECK(doc.lines().lineContentEnd(line) == fresh.lineContentEnd(line));
    }
    Position last = doc.lines().position(doc.text().size(), enc);
    CHECK(doc.lines().offset(last, enc) <= doc.text().size());
  }
  return 0;
}

#include "cli/text_locator.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

using dsls::cli::TextLocator;

TEST_CASE("lines and code-point columns, 1-based") {
  std::string text = "ab\n\xC3\xA9x\r\ny\rz";  // "é" is two bytes
  auto loc = dsls::cli::locate(text, {0, 2, 3, 5, 6, 9, 11, 12}, {5, 11});
  CHECK(loc.at(0).line == 1);
  CHECK(loc.at(0).column == 1);
  CHECK(loc.at(2).column == 3);   // the "\n" itself ends line 1
  CHECK(loc.at(3).line == 2);
  CHECK(loc.at(5).column == 2);   // after "é": one code point, not two bytes
  CHECK(loc.at(6).column == 3);   // the "\r" of "\r\n"
  CHECK(loc.at(7).line == 2);     // its "\n" still belongs to the line it ends
  CHECK(loc.at(9).line == 3);     // "\r\n" counts once
  CHECK(loc.at(11).line == 4);    // a lone "\r" ends a line
  CHECK(loc.at(12).line == 4);    // the end of the text
  CHECK(loc.at(12).column == 2);
  CHECK(loc.lineText(5) == "\xC3\xA9x");
  CHECK(loc.lineText(11) == "z");
}

TEST_CASE("chunk boundaries change nothing") {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "line " + std::to_string(i) + "\r\n";
  std::vector<std::size_t> offsets;
  for (std::size_t o = 0; o <= text.size(); o += 7) offsets.push_back(o);
  auto whole = dsls::cli::locate(text, offsets, offsets);
  for (std::size_t chunk : {1u, 2u, 3u, 64u, 1000u}) {
    TextLocator split(offsets, offsets);
    for (std::size_t i = 0; i < text.size(); i += chunk) split.feed(std::string_view(text).substr(i, chunk));
    split.finish();
    for (auto o : offsets) {
      CHECK(split.at(o).line == whole.at(o).line);
      CHECK(split.at(o).column == whole.at(o).column);
      CHECK(split.lineText(o) == whole.lineText(o));
    }
  }
  CHECK(whole.lineText(7) == "line 0");
  CHECK(whole.at(text.size()).line == 201);
}

TEST_CASE("kept lines are cut at the limit") {
  std::string text(10000, 'x');
  TextLocator loc({5000}, {5000}, 100);
  loc.feed(text);
  loc.finish();
  CHECK(loc.lineText(5000).size() == 100);
  CHECK(loc.at(5000).column == 5001);
}

TEST_CASE("long runs between offsets are counted as byte by byte") {
  // Offsets at every byte take each byte one at a time; sparse offsets skip whole runs.
  std::string text = "\xEF\xBB\xBF";
  for (int i = 0; i < 50; ++i) text += "r\xC3\xA9sum\xC3\xA9 " + std::to_string(i) + (i % 3 == 0 ? "\r\n" : i % 3 == 1 ? "\n" : "\r");
  std::vector<std::size_t> every, sparse;
  for (std::size_t o = 0; o <= text.size(); ++o) every.push_back(o);
  for (std::size_t o = 0; o <= text.size(); o += 23) sparse.push_back(o);
  const auto reference = dsls::cli::locate(text, every, {});
  const auto skipped = dsls::cli::locate(text, sparse, {});
  for (auto o : sparse) {
    CHECK(skipped.at(o).line == reference.at(o).line);
    CHECK(skipped.at(o).column == reference.at(o).column);
  }
  CHECK(reference.at(text.size()).line == 51);
}

TEST_CASE("whole lines between offsets are counted in bulk as byte by byte") {
  // Lines ending in "\n" only (the bulk path), a few with "\r", UTF-8 on most; offsets and
  // wanted lines far apart, fed in chunks of several sizes.
  std::string text;
  for (int i = 0; i < 300; ++i)
    text += (i % 5 ? "\xC3\xA9t\xC3\xA9 " : "plain ") + std::to_string(i) + (i % 97 == 0 ? "\r\n" : i % 89 == 0 ? "\r" : "\n");
  std::vector<std::size_t> every, sparse, wanted;
  for (std::size_t o = 0; o <= text.size(); ++o) every.push_back(o);
  for (std::size_t o = 3; o <= text.size(); o += 211) sparse.push_back(o);
  for (std::size_t o = 100; o <= text.size(); o += 499) wanted.push_back(o);
  const auto reference = dsls::cli::locate(text, every, wanted);
  for (std::size_t chunk : {1u, 5u, 64u, 100000u}) {
    TextLocator split(sparse, wanted);
    for (std::size_t i = 0; i < text.size(); i += chunk) split.feed(std::string_view(text).substr(i, chunk));
    split.finish();
    for (auto o : sparse) {
      CHECK(split.at(o).line == reference.at(o).line);
      CHECK(split.at(o).column == reference.at(o).column);
    }
    for (auto o : wanted) CHECK(split.lineText(o) == reference.lineText(o));
  }
  CHECK(reference.at(text.size()).line == 301);
}

TEST_CASE("reading on from known line starts gives the positions of a whole pass") {
  // The second pass of `dsls check` skips to line starts counted by the first: lines end in
  // "\n", "\r\n" and a lone "\r"; offsets and wanted lines far apart.
  std::string text;
  for (int i = 0; i < 300; ++i)
    text += "l\xC3\xA9ne " + std::to_string(i) + (i % 97 == 0 ? "\r\n" : i % 89 == 0 ? "\r" : "\n");
  std::vector<std::size_t> every, sparse, wanted;
  for (std::size_t o = 0; o <= text.size(); ++o) every.push_back(o);
  for (std::size_t o = 3; o <= text.size(); o += 211) sparse.push_back(o);
  for (std::size_t o = 100; o <= text.size(); o += 499) wanted.push_back(o);
  sparse.push_back(text.size() + 5);  // past the end
  const auto reference = dsls::cli::locate(text, every, wanted);
  std::vector<TextLocator::LineStart> starts;
  for (std::size_t o = 1; o < text.size(); ++o)
    if (text[o - 1] == '\n' || (text[o - 1] == '\r' && text[o] != '\n')) starts.push_back({o, reference.at(o).line});
  for (std::size_t chunk : {1u, 7u, 64u, 100000u}) {
    INFO("chunk " << chunk);
    TextLocator split(sparse, wanted);
    std::size_t at = 0, skips = 0;
    while (!split.done() && at < text.size()) {
      auto after = std::upper_bound(starts.begin(), starts.end(), split.nextNeeded(),
                                    [](std::size_t o, const TextLocator::LineStart& s) { return o < s.offset; });
      if (after != starts.begin() && split.skipTo(*std::prev(after))) {
        at = std::prev(after)->offset;
        ++skips;
      }
      const std::string_view piece = std::string_view(text).substr(at, chunk);
      split.feed(piece);
      at += piece.size();
    }
    split.finish();
    for (auto o : sparse) {
      CHECK(split.at(o).line == reference.at(o).line);
      CHECK(split.at(o).column == reference.at(o).column);
    }
    for (auto o : wanted) CHECK(split.lineText(o) == reference.lineText(o));
    CHECK((chunk >= text.size() || skips > 0));  // a single piece holds everything
  }
  TextLocator none({}, {});
  CHECK(none.done());
}

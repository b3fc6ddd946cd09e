// One line model everywhere (protocol/line_breaks.h): "\n", "\r\n" and a lone "\r" each end a
// line. The editor's positions (LineIndex), the log analyser's lines (LineSplitter) and the
// command line's line numbers (TextLocator) must name the same line for every byte.
#include "analysis/logs/analyze.h"
#include "cli/text_locator.h"
#include "protocol/line_breaks.h"
#include "protocol/line_index.h"

#include <doctest/doctest.h>

#include <numeric>
#include <string>
#include <vector>

using dsls::protocol::LineIndex;
using dsls::protocol::PositionEncoding;

namespace {

struct Line {
  std::size_t offset;
  std::string text;
};

// The log analyser's lines, the text fed in chunks of `chunk` bytes.
std::vector<Line> splitterLines(std::string_view text, std::size_t chunk) {
  std::vector<Line> lines;
  dsls::logs::LineSplitter splitter([&](std::string_view line, std::size_t offset) {
    lines.push_back({offset, std::string(line)});
  });
  for (std::size_t at = 0; at < text.size(); at += chunk) splitter.feed(text.substr(at, chunk));
  splitter.finish();
  return lines;
}

// A progress bar redrawn with lone "\r", Windows "\r\n" lines, "\n" lines, an empty line between
// two "\r", and a last line ended by a "\r".
const std::string kText = "step 1\r[==  ] 20%\r[====] 40%\r\nloss 0.5\r\n\ndone\r\rbye\r";

}  // namespace

TEST_CASE("LineIndex, the log splitter and the command line agree on lines") {
  const LineIndex index(kText);
  std::vector<std::size_t> every(kText.size() + 1);
  std::iota(every.begin(), every.end(), std::size_t{0});
  const auto located = dsls::cli::locate(kText, every, {});
  for (std::size_t o = 0; o <= kText.size(); ++o) {
    INFO("offset ", o);
    CHECK(located.at(o).line == index.lineOf(o) + 1);
    CHECK(located.at(o).column == index.position(o, PositionEncoding::Utf32).character + 1);
  }
  // The splitter gives every line but the empty one after the final break.
  CHECK(index.lineCount() == 9);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{3}, kText.size()}) {
    INFO("chunk ", chunk);
    const auto lines = splitterLines(kText, chunk);
    REQUIRE(lines.size() == index.lineCount() - 1);
    for (std::uint32_t k = 0; k < lines.size(); ++k) {
      CHECK(lines[k].offset == index.lineStart(k));
      CHECK(lines[k].text == kText.substr(index.lineStart(k), index.lineContentEnd(k) - index.lineStart(k)));
    }
  }
}

TEST_CASE("forEachLine gives each line's start and content end") {
  std::vector<std::pair<std::size_t, std::size_t>> seen;
  dsls::protocol::forEachLine("a\rb\r\nc\n\rd", [&](std::size_t begin, std::size_t end) { seen.push_back({begin, end}); });
  const std::vector<std::pair<std::size_t, std::size_t>> expected{{0, 1}, {2, 3}, {5, 6}, {7, 7}, {8, 9}};
  CHECK(seen == expected);
}

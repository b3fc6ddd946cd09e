#include "protocol/line_index.h"
#include "protocol/lsp_types.h"

#include <doctest/doctest.h>

using namespace dsls::protocol;

TEST_CASE("ASCII offsets and positions round-trip") {
  std::string text = "ab\ncd\n";
  LineIndex idx(text);
  CHECK(idx.lineCount() == 3);
  CHECK(idx.position(4, PositionEncoding::Utf16) == Position{1, 1});
  CHECK(idx.offset({1, 1}, PositionEncoding::Utf16) == 4);
  CHECK(idx.position(6, PositionEncoding::Utf16) == Position{2, 0});
}

TEST_CASE("non-ASCII columns differ by encoding") {
  // "é" is 2 bytes, 1 UTF-16 unit; "😀" is 4 bytes, 2 UTF-16 units (a surrogate pair), 1 UTF-32 unit.
  std::string text = "\"é😀x\"";
  LineIndex idx(text);
  std::size_t xOffset = text.find('x');
  CHECK(idx.position(xOffset, PositionEncoding::Utf8).character == 7);
  CHECK(idx.position(xOffset, PositionEncoding::Utf16).character == 4);
  CHECK(idx.position(xOffset, PositionEncoding::Utf32).character == 3);
  for (auto e : {PositionEncoding::Utf8, PositionEncoding::Utf16, PositionEncoding::Utf32})
    CHECK(idx.offset(idx.position(xOffset, e), e) == xOffset);
}

TEST_CASE("a position inside a surrogate pair maps to the pair's start") {
  std::string text = "a😀b";
  LineIndex idx(text);
  CHECK(idx.offset({0, 2}, PositionEncoding::Utf16) == 1);
  CHECK(idx.offset({0, 3}, PositionEncoding::Utf16) == 5);
}

TEST_CASE("an offset inside a UTF-8 sequence maps to the character's start") {
  std::string text = "é";
  LineIndex idx(text);
  CHECK(idx.position(1, PositionEncoding::Utf16) == Position{0, 0});
}

TEST_CASE("CRLF: the carriage return belongs to the line break") {
  std::string text = "ab\r\ncd";
  LineIndex idx(text);
  CHECK(idx.lineContentEnd(0) == 2);
  CHECK(idx.offset({0, 99}, PositionEncoding::Utf16) == 2);
  CHECK(idx.position(4, PositionEncoding::Utf16) == Position{1, 0});
}

TEST_CASE("a last line without newline, and positions past the end, clamp") {
  std::string text = "ab\ncd";
  LineIndex idx(text);
  CHECK(idx.offset({1, 50}, PositionEncoding::Utf16) == 5);
  CHECK(idx.offset({9, 0}, PositionEncoding::Utf16) == 5);
  CHECK(idx.position(500, PositionEncoding::Utf16) == Position{1, 2});
}

TEST_CASE("invalid UTF-8 bytes count as one unit each") {
  std::string text = "a\xff\xfe" "b";
  LineIndex idx(text);
  CHECK(idx.position(3, PositionEncoding::Utf16).character == 3);
  CHECK(idx.offset({0, 3}, PositionEncoding::Utf16) == 3);
  CHECK(utf8SequenceLength("\xed\xa0\x80", 0) == 1);  // an encoded surrogate is invalid
  CHECK(utf8SequenceLength("\xc0\x80", 0) == 1);      // overlong
}

TEST_CASE("position encoding negotiation prefers utf-8, then utf-16") {
  auto caps = [](Json encodings) {
    return parseClientCapabilities({{"capabilities", {{"general", {{"positionEncodings", encodings}}}}}});
  };
  CHECK(caps({"utf-16", "utf-8"}).encoding == PositionEncoding::Utf8);
  CHECK(caps({"utf-16"}).encoding == PositionEncoding::Utf16);
  CHECK(caps({"utf-32"}).encoding == PositionEncoding::Utf32);
  CHECK(caps(Json::array()).encoding == PositionEncoding::Utf16);
  CHECK(parseClientCapabilities(Json::object()).encoding == PositionEncoding::Utf16);
}

TEST_CASE("serialize replaces invalid UTF-8 instead of throwing") {
  Json j = {{"text", std::string("a\xff")}};
  CHECK(serialize(j).find("a") != std::string::npos);
}

TEST_CASE("an edited index equals the index of the edited text") {
  // A small linear congruential generator: the same edits on every machine.
  std::uint32_t state = 12345;
  auto next = [&](std::uint32_t bound) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % bound;
  };
  const std::string pieces[] = {"", "a", "\n", "\r\n", "bc\nd", "\r", "xyz", "é\n", "\r\r", "x\r"};
  std::string text = "first\nsecond\r\nthird\n\nlast";
  LineIndex idx(text);
  for (int round = 0; round < 2000; ++round) {
    const std::size_t begin = next(static_cast<std::uint32_t>(text.size() + 1));
    const std::size_t end = std::min(text.size(), begin + next(6));
    const std::string& inserted = pieces[next(10)];
    text.replace(begin, end - begin, inserted);
    idx.edit(text, begin, end, inserted);
    const LineIndex fresh(text);
    INFO("round ", round, " text '", text, "'");
    REQUIRE(idx.lineCount() == fresh.lineCount());
    for (std::uint32_t line = 0; line < fresh.lineCount(); ++line) {
      REQUIRE(idx.lineStart(line) == fresh.lineStart(line));
      REQUIRE(idx.lineContentEnd(line) == fresh.lineContentEnd(line));
    }
    if (text.size() > 400) {  // kept short so that every round compares every line
      text.erase(0, 300);
      idx = LineIndex(text);
    }
  }
}

TEST_CASE("a lone \\r ends a line, and \\r\\n is one break") {
  std::string text = "a\rb\r\nc\r";
  LineIndex idx(text);
  REQUIRE(idx.lineCount() == 4);
  CHECK(idx.lineStart(1) == 2);
  CHECK(idx.lineStart(2) == 5);
  CHECK(idx.lineStart(3) == 7);
  CHECK(idx.lineContentEnd(0) == 1);
  CHECK(idx.lineContentEnd(1) == 3);
  CHECK(idx.lineContentEnd(2) == 6);
  CHECK(idx.position(2, PositionEncoding::Utf16) == Position{1, 0});
  CHECK(idx.offset({1, 9}, PositionEncoding::Utf16) == 3);  // clamps before the "\r\n"
  LineIndex twoCr("\r\r");
  CHECK(twoCr.lineCount() == 3);
  CHECK(twoCr.lineContentEnd(1) == 1);  // the empty line between the two
}

TEST_CASE("an edit that puts \\n after \\r joins them; one between them splits them") {
  std::string text = "a\rb";
  LineIndex idx(text);
  REQUIRE(idx.lineCount() == 2);
  text.replace(2, 0, "\n");  // "a\r\nb": one break
  idx.edit(text, 2, 2, "\n");
  CHECK(idx.lineCount() == 2);
  CHECK(idx.lineStart(1) == 3);
  CHECK(idx.lineContentEnd(0) == 1);
  text.replace(2, 0, "x");  // "a\rx\nb": two breaks
  idx.edit(text, 2, 2, "x");
  CHECK(idx.lineCount() == 3);
  CHECK(idx.lineStart(1) == 2);
  CHECK(idx.lineStart(2) == 4);
  text.replace(2, 1, "");  // "a\r\nb" again
  idx.edit(text, 2, 3, "");
  CHECK(idx.lineCount() == 2);
  CHECK(idx.lineStart(1) == 3);
  text.replace(0, 2, "");  // "\nb": the "\n" alone
  idx.edit(text, 0, 2, "");
  CHECK(idx.lineCount() == 2);
  CHECK(idx.lineStart(1) == 1);
}

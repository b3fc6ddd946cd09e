#include "lsp/document.h"
#include "lsp/settings.h"

#include <doctest/doctest.h>

using dsls::lsp::Document;
using dsls::protocol::ContentChange;
using dsls::protocol::PositionEncoding;
using dsls::protocol::Range;

namespace {

ContentChange edit(std::uint32_t l1, std::uint32_t c1, std::uint32_t l2, std::uint32_t c2, std::string text) {
  return ContentChange{Range{{l1, c1}, {l2, c2}}, std::move(text)};
}

}  // namespace

TEST_CASE("incremental edits splice the text") {
  Document d("file:///a.json", "json", 1, "{\n  \"a\": 1\n}\n");
  d.apply(edit(1, 7, 1, 8, "42"), PositionEncoding::Utf16);
  CHECK(d.text() == "{\n  \"a\": 42\n}\n");
  d.apply(edit(2, 1, 2, 1, " // end"), PositionEncoding::Utf16);
  CHECK(d.text() == "{\n  \"a\": 42\n} // end\n");
  CHECK(d.revision() == 3);
}

TEST_CASE("an edit leaves the text an analysis holds as it was, and edits in place otherwise") {
  Document d("file:///a.json", "json", 1, "{\"a\": 1}");
  auto held = d.sharedText();  // what the pool gets for an analysis
  d.apply(edit(0, 6, 0, 7, "2"), PositionEncoding::Utf16);
  CHECK(*held == "{\"a\": 1}");
  CHECK(d.text() == "{\"a\": 2}");
  CHECK(d.sharedText() != held);
  held.reset();
  const std::string* before = &d.text();
  d.apply(edit(0, 6, 0, 7, "3"), PositionEncoding::Utf16);
  CHECK(d.text() == "{\"a\": 3}");
  CHECK(&d.text() == before);  // no analysis held it: no copy
}

TEST_CASE("a full-text change replaces everything") {
  Document d("file:///a.json", "json", 1, "old");
  d.apply(ContentChange{std::nullopt, "new text"}, PositionEncoding::Utf16);
  CHECK(d.text() == "new text");
  CHECK(d.lines().lineCount() == 1);
}

TEST_CASE("edits use the negotiated encoding") {
  Document d("file:///a.json", "json", 1, "\"😀x\"");
  d.apply(edit(0, 3, 0, 4, "y"), PositionEncoding::Utf16);  // after the surrogate pair
  CHECK(d.text() == "\"😀y\"");
  d.apply(edit(0, 5, 0, 6, "z"), PositionEncoding::Utf8);  // byte 5 is the y
  CHECK(d.text() == "\"😀z\"");
}

TEST_CASE("a range past the last line or reversed is refused; a character past its line's end clamps") {
  Document d("file:///a.json", "json", 1, "ab\ncd");
  CHECK(d.apply(edit(5, 0, 9, 9, "!"), PositionEncoding::Utf16) == "an edit on line 9, past the last line 1");
  CHECK(d.apply(edit(0, 2, 0, 0, "X"), PositionEncoding::Utf16) == "an edit whose range starts after it ends");
  CHECK(d.text() == "ab\ncd");
  CHECK(d.revision() == 1);
  CHECK(d.apply(edit(1, 9, 1, 9, "!"), PositionEncoding::Utf16).empty());
  CHECK(d.text() == "ab\ncd!");
  CHECK(d.apply(edit(0, 99, 1, 0, ""), PositionEncoding::Utf16).empty());  // joins the lines
  CHECK(d.text() == "abcd!");
}

TEST_CASE("CRLF line ends stay intact when editing a line's end") {
  Document d("file:///a.json", "json", 1, "ab\r\ncd");
  d.apply(edit(0, 99, 0, 99, "!"), PositionEncoding::Utf16);
  CHECK(d.text() == "ab!\r\ncd");
}

TEST_CASE("settings: flat keys, rule levels and bad values") {
  dsls::workspace::SettingValues v;
  std::vector<std::string> problems;
  dsls::lsp::mergeSettings({{"deepspeedVersion", "0.14.2"},
                            {"worldSize", 8},
                            {"launcher", "torchrun"},
                            {"torchCompile", true},
                            {"rules", {{"unknown-key", "off"}, {"overlap-comm-race", "error"}, {"x", "loud"},
                                       {"overlap-comm-rase", "off"}}},
                            {"torchVersion", 3}},
                           v, problems);
  const dsls::analysis::Settings& s = v.settings;
  CHECK(s.deepspeedVersion == "0.14.2");
  CHECK(s.deepspeedVersionSource == "editor settings");
  CHECK(s.worldSize == 8);
  CHECK(s.launcher == dsls::analysis::Launcher::Unknown);
  CHECK(s.torchCompile == true);
  REQUIRE(s.ruleOverrides.count("unknown-key"));
  CHECK_FALSE(s.ruleOverrides.at("unknown-key").has_value());
  CHECK(s.ruleOverrides.at("overlap-comm-race") == dsls::analysis::Severity::Error);
  CHECK(s.ruleOverrides.count("x") == 0);
  CHECK(s.ruleOverrides.count("overlap-comm-rase") == 0);
  CHECK(problems == std::vector<std::string>{
                        "dsls.torchVersion must be a release number such as 0.14.2; the setting is ignored",
                        "dsls.launcher: 'torchrun' is not a launcher; it must be hf, accelerate or deepspeed; the "
                        "setting is ignored",
                        "dsls.rules.overlap-comm-rase: 'overlap-comm-rase' is not a rule code; the nearest is "
                        "'overlap-comm-race'; `dsls rules` lists them all; the entry is ignored",
                        "dsls.rules.x must be off, error, warning, information or hint; the entry is ignored"});
}

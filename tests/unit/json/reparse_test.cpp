// Reuse of a parsed document after an edit: where reparseAfterEdit answers, its document must be
// the one a full parse of the new text gives, field by field; where the edit is not inside one
// scalar value it must decline.
#include <doctest/doctest.h>

#include "analysis/json/reparse.h"
#include "tests/unit/json/document_difference.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

using namespace dsls::json;

using dsls::json::test::Difference;

namespace {

std::string edited(std::string text, std::size_t at, std::size_t erase, const std::string& insert) {
  return text.replace(at, erase, insert);
}

// reparseAfterEdit's answer, checked against a full parse; whether it answered.
bool reusedAndEqual(const std::string& before, const std::string& after) {
  const Document old = parse(before);
  std::optional<Document> reused = reparseAfterEdit(old, before, after);
  if (!reused) return false;
  const std::string difference = Difference().between(*reused, parse(after));
  INFO("before: ", before);
  INFO("after:  ", after);
  CHECK_MESSAGE(difference.empty(), difference);
  return true;
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("the changed region is what lies between the common head and tail") {
  const ChangedRegion r = changedRegion(R"({"stage": 2})", R"({"stage": 23})");
  CHECK(r.begin == 11);
  CHECK(r.oldEnd == 11);
  CHECK(r.newEnd == 12);
  const std::string big(5000, 'x');
  const ChangedRegion far = changedRegion(big + "a" + big, big + "bc" + big);
  CHECK(far.begin == 5000);
  CHECK(far.oldEnd == 5001);
  CHECK(far.newEnd == 5002);
  const ChangedRegion same = changedRegion("abc", "abc");
  CHECK(same.begin == 3);
  CHECK(same.oldEnd == 3);
  CHECK(same.newEnd == 3);
}

TEST_CASE("an edit inside one value reuses the tree and moves what follows") {
  const std::string text =
      "{\n  \"zero_optimization\": {\"stage\": 2, \"overlap_comm\": true},\n"
      "  \"lr\": 0.0002, // comment\n  \"name\": \"run-a\",\n  \"list\": [1, null, \"x\",],\n  \"lr\": 1\n}\n";
  const std::size_t stage = text.find('2');
  CHECK(reusedAndEqual(text, edited(text, stage, 1, "3")));
  CHECK(reusedAndEqual(text, edited(text, stage, 1, "123")));
  CHECK(reusedAndEqual(text, edited(text, stage + 1, 0, "0")));  // typed after the digit
  CHECK(reusedAndEqual(text, edited(text, stage, 0, "1")));      // typed before it
  CHECK(reusedAndEqual(text, edited(text, text.find("true"), 4, "false")));
  CHECK(reusedAndEqual(text, edited(text, text.find("null"), 4, "1e8")));
  CHECK(reusedAndEqual(text, edited(text, text.find("run-a") + 5, 0, "\\n\\u00e9")));
  CHECK(reusedAndEqual(text, edited(text, text.find("run-a"), 5, "")));
  CHECK(reusedAndEqual(text, edited(text, text.find("run-a"), 1, "\xc3\xa9")));
  CHECK(reusedAndEqual(text, text));
}

TEST_CASE("blanks added or removed between the tokens of a valid document reuse the tree") {
  const std::string text = "{\n  \"a\": 1,\n  \"b\": [true, \"x y\"], // note\n  \"c\": {}\n}\n";
  CHECK(reusedAndEqual(text, edited(text, text.find("\"b\""), 0, "\n  ")));  // a new line before a key
  CHECK(reusedAndEqual(text, edited(text, text.find("1,") + 1, 0, "  ")));     // after a value, before its comma
  CHECK(reusedAndEqual(text, edited(text, text.find("[true") + 1, 0, " ")));   // just inside a bracket
  CHECK(reusedAndEqual(text, edited(text, text.find(": 1"), 0, "\t")));        // between a key and its colon
  CHECK(reusedAndEqual(text, edited(text, text.find(",\n  \"b\"") + 1, 3, "")));  // a line break and indent removed
  CHECK(reusedAndEqual(text, edited(text, text.find("x y") + 1, 1, "")));   // blanks in a string: a value edit
  CHECK(reusedAndEqual(text, edited(text, text.find("x y") + 1, 0, " ")));
  CHECK(reusedAndEqual(text, edited(text, text.size() - 1, 1, "\n\n")));       // after the document
  const Document old = parse(text);
  auto declines = [&](const std::string& after) {
    INFO("after: ", after);
    CHECK_FALSE(reparseAfterEdit(old, text, after).has_value());
  };
  declines(edited(text, text.find("true") + 2, 0, " "));     // a blank that splits a literal
  declines(edited(text, text.find(" // note"), 1, ""));      // touching a comment
  declines(edited(text, text.find("// note") + 7, 0, " "));  // at a line comment's end, where it would grow
  declines(edited(text, text.find("// note") + 7, 1, ""));   // the line break that ends a comment
  // With a syntax error, a line break can change how the error reads (hjson takes a missing
  // comma before a new line): no reuse.
  const std::string broken = "{\"a\": 1 \"b\": 2}";
  CHECK_FALSE(reparseAfterEdit(parse(broken), broken, edited(broken, broken.find(" \"b"), 0, "\n")).has_value());
}

TEST_CASE("an edit inside a key of a valid document reuses the tree and finds its duplicates again") {
  const std::string text =
      "{\"zero_optimization\": {\"stage\": 2, \"stages\": 3, \"x\": {\"k\": 1, \"k\": 2}},"
      " \"list\": [{\"a\": 1, \"b\": 2}], \"b\": 1}";
  REQUIRE(parse(text).duplicates.size() == 1);
  CHECK(reusedAndEqual(text, edited(text, text.find("stages") + 5, 1, "")));        // makes a duplicate
  CHECK(reusedAndEqual(text, edited(text, text.find("\"k\": 2") + 1, 1, "j")));     // ends one
  CHECK(reusedAndEqual(text, edited(text, text.find("zero_optimization"), 4, "")));  // renames the path of one
  CHECK(reusedAndEqual(text, edited(text, text.find("\"b\": 2") + 1, 1, "a")));     // in an array's object
  CHECK(reusedAndEqual(text, edited(text, text.find("\"b\": 1") + 1, 0, "\\u0062")));  // an escape
  std::optional<Document> renamed = reparseAfterEdit(parse(text), text, edited(text, text.find("stages") + 5, 1, ""));
  REQUIRE(renamed);
  REQUIRE(renamed->duplicates.size() == 2);
  CHECK(renamed->duplicates[0].path == "zero_optimization.stage");
  // Messages quote keys: with an error in the document, a key edit parses again.
  const std::string broken = "{\"a\": 1 \"b\": 2}";
  CHECK_FALSE(reparseAfterEdit(parse(broken), broken, edited(broken, 2, 0, "x")).has_value());
}

TEST_CASE("an edit that is not inside one value gets no reuse") {
  const std::string text = "{\"stage\": 2, \"name\": \"a\", \"list\": [1, 2], \"bad\": tru, \"x\": 1 \"y\": 2}";
  const Document old = parse(text);
  auto declines = [&](const std::string& after) {
    INFO("after: ", after);
    CHECK_FALSE(reparseAfterEdit(old, text, after).has_value());
  };
  declines(edited(text, 2, 1, "S"));                             // in a key
  declines(edited(text, text.find('2'), 0, " "));                // blanks before a value
  declines(edited(text, text.find('2') + 1, 0, " "));            // blanks after it
  declines(edited(text, text.find('2'), 1, "\"2\""));            // a number becomes a string
  declines(edited(text, text.find('2'), 1, "2x"));               // no longer a number
  declines(edited(text, text.find("\"a\"") + 1, 0, "\""));       // a quote splits the string
  declines(edited(text, text.find("\"a\"") + 1, 0, "\\q"));      // a bad escape
  declines(edited(text, text.find("\"a\"") + 1, 0, "\xff"));     // not UTF-8
  declines(edited(text, text.find("1, 2"), 4, "12"));            // across two values
  declines(edited(text, text.find("1, 2") + 1, 1, ""));          // a comma
  declines(edited(text, text.find("tru"), 3, "true"));           // the value holds an error
  declines(edited(text, 0, 1, ""));                              // the brace
}

TEST_CASE("every one-character edit of real configs and broken texts that is reused equals a full parse") {
  std::vector<std::string> texts = {
      "\xEF\xBB\xBF{\"a\": 1, \"b\": [true, false, null], \"c\": \"d\\te\"}",
      "{\"a\": 1, \"a\": 2, /* c */ \"b\": {\"c\": 1e3, \"c\": -0.5},}",
      "\"k\": 1,\n\"m\": \"v\"\n",  // no outer braces
      "{\"a\": 1}, \"b\": 2}",      // an early '}'
      "{\"a\": \"unclosed, \"b\": 3\n, \"c\": [1 2], \"d\": auto}",
      "[1, -2.5, \"x\", {\"y\": [\"z\"]}]",
      "42",
  };
  const std::filesystem::path fixtures = std::filesystem::path(DSLS_SOURCE_DIR) / "tests/fixtures/config/rules";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(fixtures))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (std::size_t i = 0; i < files.size(); i += 8) texts.push_back(readFile(files[i]));
  REQUIRE(texts.size() > 20);

  const std::vector<std::string> inserts = {"1",  "0", "e",   "-", ".", "a", "\"", "\\", "\\n", "\xc3\xa9", " ", ",",
                                            "\n", "\t", "\r\n", "/"};
  std::size_t reused = 0, tried = 0;
  for (const std::string& text : texts) {
    // About 150 positions per text, spread over all of it.
    const std::size_t step = std::max<std::size_t>(1, text.size() / 150);
    for (std::size_t at = 0; at < text.size(); at += step) {
      for (const std::string& insert : inserts) {
        tried += 2;
        reused += reusedAndEqual(text, edited(text, at, 0, insert));
        reused += reusedAndEqual(text, edited(text, at, 1, insert));
      }
      ++tried;
      reused += reusedAndEqual(text, edited(text, at, 1, ""));
    }
  }
  // Edits in keys, blanks and punctuation are declined; a check that never reuses proves nothing.
  MESSAGE("reused ", reused, " of ", tried, " edits");
  CHECK(reused > 2000);
}

TEST_CASE("a long run of reused edits stays equal to full parses after the earlier documents are gone") {
  std::string text = "{\"name\": \"run\", \"steps\": 0, \"tags\": [\"a\", \"b\"], \"nested\": {\"k\": \"v\"}}";
  auto doc = std::make_unique<Document>(parse(text));
  for (int i = 1; i <= 30; ++i) {
    const std::size_t steps = text.find("\"steps\": ") + 9;
    std::string next = text;
    next.replace(steps, next.find(',', steps) - steps, std::to_string(i * 7));
    std::optional<Document> reused = reparseAfterEdit(*doc, text, next);
    REQUIRE(reused);
    // The document it came from goes first: the strings the new one kept must not be its own.
    doc = std::make_unique<Document>(std::move(*reused));
    text = next;
    INFO("edit ", i);
    CHECK(Difference().between(*doc, parse(text)).empty());
    CHECK(doc->olderPools.size() <= 8);
  }
}

// Values, their decoded contents and their exact byte ranges.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "analysis/json/document.h"
#include "tests/unit/json/test_support.h"

using namespace dsls::json;
using dsls::json::test::offsetOf;
using dsls::json::test::slice;

TEST_CASE("scalars and their ranges") {
  const std::string text = R"({"a": true, "b": false, "c": null, "d": -12.5e1, "e": "x", "f": [], "g": {}})";
  const Document doc = parse(text);
  REQUIRE(doc.errors.empty());
  REQUIRE(doc.root);
  const Node& root = *doc.root;
  CHECK(root.kind == Kind::Object);
  CHECK(root.range.begin == 0);
  CHECK(root.range.end == text.size());
  REQUIRE(root.members().size() == 7);

  CHECK(root.find("a")->value.kind == Kind::Bool);
  CHECK(root.find("a")->value.boolean);
  CHECK_FALSE(root.find("b")->value.boolean);
  CHECK(root.find("c")->value.kind == Kind::Null);
  const Node& d = root.find("d")->value;
  CHECK(d.kind == Kind::Number);
  CHECK(d.number == -125.0);
  CHECK(d.isInteger);
  CHECK(d.raw(text) == "-12.5e1");
  CHECK(root.find("e")->value.string == "x");
  CHECK(root.find("e")->value.raw(text) == "\"x\"");
  CHECK(root.find("f")->value.kind == Kind::Array);
  CHECK(root.find("f")->value.raw(text) == "[]");
  CHECK(root.find("g")->value.raw(text) == "{}");
  CHECK(root.find("missing") == nullptr);
}

TEST_CASE("key and member ranges") {
  const std::string text = "{\n  \"zero_optimization\" : {\n    \"stage\": 3\n  }\n}";
  const Document doc = parse(text);
  REQUIRE(doc.errors.empty());
  const Member& zero = doc.root->members().at(0);
  CHECK(zero.key == "zero_optimization");
  CHECK(slice(text, zero.keyRange) == "\"zero_optimization\"");
  CHECK(zero.range().begin == offsetOf(text, "\"zero"));
  CHECK(zero.range().end == offsetOf(text, "}") + 1);  // the inner object's '}' is the first one
  CHECK(zero.range().end == zero.value.range.end);
  const Member& stage = zero.value.members().at(0);
  CHECK(slice(text, stage.keyRange) == "\"stage\"");
  CHECK(slice(text, stage.range()) == "\"stage\": 3");
  CHECK(slice(text, stage.value.range) == "3");
}

TEST_CASE("byte offsets past non-ASCII text") {
  // "é" is two bytes, "😀" four; ranges count bytes.
  const std::string text = "{\"é\": \"😀\", \"k\": 1}";
  const Document doc = parse(text);
  REQUIRE(doc.errors.empty());
  const Member& first = doc.root->members().at(0);
  CHECK(first.key == "é");
  CHECK(first.keyRange.begin == 1);
  CHECK(first.keyRange.end == 1 + 4);
  CHECK(first.value.range.begin == 7);
  CHECK(first.value.range.end == 7 + 6);
  CHECK(first.value.string == "😀");
  const Member& k = doc.root->members().at(1);
  CHECK(k.keyRange.begin == offsetOf(text, "\"k\""));
  CHECK(slice(text, k.value.range) == "1");
}

TEST_CASE("string escapes decode, including surrogate pairs") {
  const std::string text = R"(["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC", "\ud83d\ude00", "\ud83d", "\udc00x"])";
  const Document doc = parse(text);
  REQUIRE(doc.errors.empty());
  const auto& e = doc.root->elements();
  REQUIRE(e.size() == 5);
  CHECK(e[0].string == "a\"b\\c/d\b\f\n\r\t");
  CHECK(e[1].string == "é€");
  CHECK(e[2].string == "😀");
  CHECK(e[3].string == "\xEF\xBF\xBD");   // lone high surrogate -> U+FFFD
  CHECK(e[4].string == "\xEF\xBF\xBDx");  // lone low surrogate -> U+FFFD
}

TEST_CASE("invalid escapes are errors at the escape, the string is kept") {
  const std::string text = R"({"path": "C:\data\x", "u": "\u12G4"})";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 3);
  CHECK(slice(text, doc.errors[0].range) == "\\d");
  CHECK(slice(text, doc.errors[1].range) == "\\x");
  CHECK(slice(text, doc.errors[2].range) == "\\u12G4");
  CHECK(doc.root->find("path")->value.string == "C:datax");
  CHECK(doc.root->find("u") != nullptr);
}

TEST_CASE("numbers follow the JSON grammar and record integral values") {
  const std::string text = R"([0, -0, 5e8, 1e12, 1.0, 0.5, 2E+3, 1e-2, 123456789012, 1e400, -1e400, 1e-400])";
  const Document doc = parse(text);
  REQUIRE(doc.errors.empty());
  const auto& e = doc.root->elements();
  REQUIRE(e.size() == 12);
  CHECK(e[0].isInteger);
  CHECK(e[1].isInteger);
  CHECK(e[2].number == 5e8);
  CHECK(e[2].isInteger);
  CHECK(e[3].isInteger);
  CHECK(e[4].isInteger);
  CHECK_FALSE(e[5].isInteger);
  CHECK(e[6].number == 2000);
  CHECK_FALSE(e[7].isInteger);
  CHECK(e[8].number == 123456789012.0);
  CHECK(std::isinf(e[9].number));
  CHECK_FALSE(e[9].isInteger);
  CHECK(e[10].number < 0);
  CHECK(e[11].number == 0.0);
}

TEST_CASE("malformed numbers are errors with the number's range") {
  for (const std::string bad : {"01", "1.", ".5", "+1", "1e", "0x10", "1.2.3", "-", "5e8x"}) {
    CAPTURE(bad);
    const std::string text = "{\"n\": " + bad + "}";
    const Document doc = parse(text);
    REQUIRE(doc.errors.size() == 1);
    CHECK(slice(text, doc.errors[0].range) == bad);
    CHECK(doc.errors[0].message.find("not a valid JSON number") != std::string::npos);
    CHECK(doc.root->find("n")->value.kind == Kind::Invalid);
  }
}

TEST_CASE("a root that is not an object, and an empty document") {
  CHECK(parse("42").root->number == 42);
  CHECK(parse("  \"s\"  ").root->string == "s");
  CHECK(parse("[1, 2]").root->elements().size() == 2);

  const Document empty = parse("  \n ");
  CHECK_FALSE(empty.root);
  REQUIRE(empty.errors.size() == 1);
  CHECK(empty.errors[0].message.find("empty") != std::string::npos);

  const Document bom = parse("\xEF\xBB\xBF{\"a\": 1}");
  CHECK(bom.errors.empty());
  CHECK(bom.root->range.begin == 3);
}

TEST_CASE("raw() returns the exact source text of a value") {
  const std::string text = "{\"betas\": [0.9 , 0.999 ], \"s\": \"a\\nb\"}";
  const Document doc = parse(text);
  CHECK(doc.root->find("betas")->value.raw(text) == "[0.9 , 0.999 ]");
  CHECK(doc.root->find("s")->value.raw(text) == "\"a\\nb\"");
  CHECK(doc.root->raw(text) == text);
}

TEST_CASE("template placeholders are unknown values, not syntax errors") {
  const std::string text =
      "{\"a\": CONFIG_BATCH_SIZE, \"b\": ${X:-2}, \"c\": $Y, \"d\": {{ z }}, \"e\": \"@E@\", \"f\": [${G}, 1],\n"
      " \"t\": TRUE, \"p\": True, \"w\": Mixed, \"m\": CL_1st_MIN, \"s\": \"${H} and more\"}";
  dsls::json::Document doc = dsls::json::parse(text);
  REQUIRE(doc.root);
  std::vector<std::string> placeholders;
  for (auto r : doc.placeholders) placeholders.push_back(text.substr(r.begin, r.end - r.begin));
  CHECK(placeholders ==
        std::vector<std::string>{"CONFIG_BATCH_SIZE", "${X:-2}", "$Y", "{{ z }}", "\"@E@\"", "${G}", "CL_1st_MIN"});
  CHECK(doc.root->find("a")->value.kind == dsls::json::Kind::Invalid);
  CHECK(doc.root->find("f")->value.elements().size() == 2);
  CHECK(doc.root->find("s")->value.kind == dsls::json::Kind::String);  // more than a placeholder
  // Misspelt literals and other bare words stay errors, one each.
  REQUIRE(doc.errors.size() == 3);
  CHECK(doc.errors[0].message == "'TRUE' is not a JSON value; text values need double quotes");
  CHECK(doc.errors[1].message == "'True' is not a JSON value; JSON spells it true");
  CHECK(doc.errors[2].message == "'Mixed' is not a JSON value; text values need double quotes");
}

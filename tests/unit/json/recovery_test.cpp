// Error recovery: every case keeps what parsed and points at the offending token.
#include <doctest/doctest.h>

#include <string>

#include "analysis/json/document.h"
#include "tests/unit/json/test_support.h"

using namespace dsls::json;
using dsls::json::test::hasErrorContaining;
using dsls::json::test::offsetOf;
using dsls::json::test::slice;

TEST_CASE("missing comma between members") {
  const std::string text =
      "{\n  \"fp16\": {\"enabled\": false}\n  \"gradient_clipping\": 0,\n  \"stage\": 1 \"x\": 2\n}";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 2);
  CHECK(doc.errors[0].message == "expected ',' or '}' after the value of \"fp16\"");
  CHECK(slice(text, doc.errors[0].range) == "\"gradient_clipping\"");
  CHECK(doc.errors[0].hjsonAccepts);  // a new line separates them
  CHECK(doc.errors[1].message == "expected ',' or '}' after the value of \"stage\"");
  CHECK(slice(text, doc.errors[1].range) == "\"x\"");
  CHECK_FALSE(doc.errors[1].hjsonAccepts);  // hjson would read `1 "x": 2` as one string
  REQUIRE(doc.root->members().size() == 4);
  CHECK(doc.root->find("gradient_clipping")->value.number == 0);
  CHECK(doc.root->find("x")->value.number == 2);
  CHECK(doc.root->closed);
}

TEST_CASE("missing comma between array elements") {
  const std::string text = "[1 2, \"a\" \"b\"]";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 2);
  CHECK(slice(text, doc.errors[0].range) == "2");
  CHECK_FALSE(doc.errors[0].hjsonAccepts);
  CHECK(slice(text, doc.errors[1].range) == "\"b\"");
  CHECK(doc.errors[1].hjsonAccepts);
  CHECK(doc.root->elements().size() == 4);
}

TEST_CASE("missing closing brace at the end of the text") {
  const std::string text = "{\n  \"a\": 1,\n  \"b\": {\"c\": true\n";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 1);
  // Only the innermost unclosed bracket is reported.
  CHECK(doc.errors[0].range.begin == offsetOf(text, "{\"c\""));
  CHECK(doc.errors[0].message == "this '{' has no matching '}' before the end of the text");
  CHECK_FALSE(doc.root->closed);
  CHECK(doc.root->range.end == text.size());
  CHECK(doc.root->find("b")->value.find("c")->value.boolean);
}

TEST_CASE("missing opening brace: members are still read") {
  const std::string text = "  \"zero_optimization\": {\n    \"stage\": 3\n  },\n  \"bf16\": {\"enabled\": true}\n}\n";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 1);
  CHECK(slice(text, doc.errors[0].range) == "\"zero_optimization\"");
  CHECK(doc.errors[0].message == "the opening '{' is missing before the first key");
  CHECK_FALSE(doc.errors[0].hjsonAccepts);  // hjson fails on the final '}'
  REQUIRE(doc.root);
  CHECK(doc.root->kind == Kind::Object);
  CHECK(doc.root->find("zero_optimization")->value.find("stage")->value.number == 3);
  CHECK(doc.root->find("bf16") != nullptr);
  CHECK(doc.root->closed);

  // Without the final '}' it is an hjson document without root braces.
  const Document bare = parse("\"a\": 1,\n\"b\": 2\n");
  REQUIRE(bare.errors.size() == 1);
  CHECK(bare.errors[0].hjsonAccepts);
  CHECK(bare.root->members().size() == 2);
}

TEST_CASE("an early top-level '}' does not lose the members after it") {
  const std::string text = "{\"a\": {\"b\": 1}},\n \"c\": 2}";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 1);
  CHECK(doc.errors[0].range.begin == offsetOf(text, "},"));
  CHECK(doc.errors[0].message == "this '}' closes the top-level object, but more members follow it");
  CHECK(doc.root->find("c")->value.number == 2);
  CHECK(doc.root->closed);
}

TEST_CASE("unterminated string value ends at the end of its line") {
  const std::string text = "{\n  \"type\": \"Adam,\n  \"lr\": 0.1\n}";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 1);
  CHECK(slice(text, doc.errors[0].range) == "\"Adam,");
  CHECK(doc.errors[0].message.find("not closed") != std::string::npos);
  const Node& type = doc.root->find("type")->value;
  CHECK(type.kind == Kind::String);
  CHECK_FALSE(type.closed);
  CHECK(type.string == "Adam,");
  CHECK(doc.root->find("lr")->value.number == 0.1);
}

TEST_CASE("a half-typed key at the end of the file") {
  const std::string text = "{\n  \"train_batch_size\": 8,\n  \"zero_opt";
  const Document doc = parse(text);
  REQUIRE(doc.root);
  REQUIRE(doc.root->members().size() == 2);
  const Member& half = doc.root->members()[1];
  CHECK(half.key == "zero_opt");
  CHECK(slice(text, half.keyRange) == "\"zero_opt");
  CHECK(half.value.kind == Kind::Invalid);
  CHECK(hasErrorContaining(doc, "key is not closed"));
  CHECK(hasErrorContaining(doc, "no matching '}'"));
  CHECK_FALSE(hasErrorContaining(doc, "expected ':'"));  // the unclosed key says it already
}

TEST_CASE("a half-typed key between members") {
  const std::string text = "{\n  \"zero_opt\n  \"train_batch_size\": 8\n}";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 1);
  CHECK(slice(text, doc.errors[0].range) == "\"zero_opt");
  REQUIRE(doc.root->members().size() == 2);
  CHECK(doc.root->members()[1].value.number == 8);
  CHECK(doc.root->closed);
}

TEST_CASE("key without colon or value") {
  const std::string text = "{\"a\" 1, \"b\": , \"c\":}";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 3);
  CHECK(doc.errors[0].message == "expected ':' after the key \"a\"");
  CHECK(slice(text, doc.errors[0].range) == "1");
  CHECK(doc.root->find("a")->value.number == 1);  // the colon alone was missing
  CHECK(doc.errors[1].message == "expected a value for \"b\"");
  CHECK(slice(text, doc.errors[1].range) == ",");
  CHECK(doc.errors[2].message == "expected a value for \"c\"");
  CHECK(slice(text, doc.errors[2].range) == "}");
  const Member& b = *doc.root->find("b");
  CHECK(b.value.kind == Kind::Invalid);
  CHECK(slice(text, b.value.range) == " ");  // the blanks after the colon
  CHECK(doc.root->members().size() == 3);
}

TEST_CASE("stray tokens are reported and skipped") {
  const std::string text = "{\"a\": 1, ] \"b\": 2,, : \"c\": [1, } 2]}";
  const Document doc = parse(text);
  CHECK(hasErrorContaining(doc, "unexpected ']' inside an object"));
  CHECK(hasErrorContaining(doc, "unexpected ','; a member is missing"));
  CHECK(hasErrorContaining(doc, "expected a key before ':'"));
  CHECK(hasErrorContaining(doc, "expected ']' to close the array before '}'"));
  CHECK(doc.root->find("a")->value.number == 1);
  CHECK(doc.root->find("b")->value.number == 2);
  REQUIRE(doc.root->find("c") != nullptr);
  CHECK(doc.root->find("c")->value.elements().size() == 1);
}

TEST_CASE("a mismatched closer closes the inner container when an outer one matches") {
  const std::string text = "{\"list\": [{\"a\": 1], \"b\": 2}";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 1);
  CHECK(doc.errors[0].message == "expected '}' to close the object before ']'");
  CHECK(doc.errors[0].range.begin == offsetOf(text, "]"));
  const Node& list = doc.root->find("list")->value;
  REQUIRE(list.elements().size() == 1);
  CHECK(list.closed);
  CHECK(list.elements()[0].find("a") != nullptr);
  CHECK_FALSE(list.elements()[0].closed);
  CHECK(doc.root->find("b")->value.number == 2);
}

TEST_CASE("unquoted values and keys") {
  const std::string text = "{\n  \"min_difficulty\": CONFIG_CL_MIN,\n  stage: 3,\n  \"b\": True\n}";
  const Document doc = parse(text);
  // The upper-case name is a template placeholder (json/placeholders.h), not an error.
  REQUIRE(doc.errors.size() == 2);
  REQUIRE(doc.placeholders.size() == 1);
  CHECK(slice(text, doc.placeholders[0]) == "CONFIG_CL_MIN");
  const Node& placeholder = doc.root->find("min_difficulty")->value;
  CHECK(placeholder.kind == Kind::Invalid);
  CHECK(placeholder.string == "CONFIG_CL_MIN");
  CHECK(doc.errors[0].message == "the key 'stage' needs double quotes");
  CHECK(doc.errors[0].hjsonAccepts);
  CHECK(doc.root->find("stage")->value.number == 3);
  CHECK(doc.errors[1].message == "'True' is not a JSON value; JSON spells it true");
}

TEST_CASE("text after the document") {
  const std::string text = "{\"a\": 1} [2]";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 1);
  CHECK(slice(text, doc.errors[0].range) == "[");
  CHECK(doc.errors[0].message.find("after the end of the document") != std::string::npos);
}

TEST_CASE("control characters inside strings") {
  const std::string text = "{\"a\": \"x\ty\"}";
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 1);
  CHECK(doc.errors[0].range.begin == offsetOf(text, "\t"));
  CHECK(doc.errors[0].message == "control character U+0009 must be written as an escape inside a string");
  CHECK(doc.root->find("a")->value.string == "x\ty");
}

TEST_CASE("error count is capped") {
  std::string text = "[";
  for (int i = 0; i < 1000; ++i) text += "x ";
  text += "]";
  ParseOptions options;
  options.maxErrors = 50;
  const Document doc = parse(text, options);
  CHECK(doc.errors.size() == 51);
  CHECK(hasErrorContaining(doc, "too many syntax errors"));
  CHECK(doc.root->elements().size() == 1000);
}

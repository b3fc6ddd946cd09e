// What DeepSpeed's hjson loader accepts beyond JSON is recorded, not reported;
// duplicate keys (which DeepSpeed rejects) are recorded with their first occurrence.
#include <doctest/doctest.h>

#include <string>

#include "analysis/json/document.h"
#include "tests/unit/json/test_support.h"

using namespace dsls::json;
using dsls::json::test::offsetOf;
using dsls::json::test::slice;

TEST_CASE("comments are recorded with their ranges") {
  const std::string text =
      "// leading\n{\n  \"a\": 1, // after a\n  /* block\n spanning */ \"b\": /* inline */ 2,\n  # hash\n  \"c\": \"// "
      "not a comment\"\n}";
  const Document doc = parse(text);
  CHECK(doc.errors.empty());
  REQUIRE(doc.comments.size() == 5);
  CHECK(slice(text, doc.comments[0]) == "// leading");
  CHECK(slice(text, doc.comments[1]) == "// after a");
  CHECK(slice(text, doc.comments[2]) == "/* block\n spanning */");
  CHECK(slice(text, doc.comments[3]) == "/* inline */");
  CHECK(slice(text, doc.comments[4]) == "# hash");
  CHECK(doc.root->find("b")->value.number == 2);
  CHECK(doc.root->find("c")->value.string == "// not a comment");
}

TEST_CASE("an unclosed block comment is an error and runs to the end") {
  const std::string text = "{\"a\": 1 /* open";
  const Document doc = parse(text);
  REQUIRE(doc.comments.size() == 1);
  CHECK(doc.comments[0].end == text.size());
  REQUIRE(doc.errors.size() == 2);  // and the object is not closed
  CHECK(slice(text, doc.errors[1].range) == "/*");
  CHECK(doc.errors[1].message == "this comment is not closed; '*/' is missing");
}

TEST_CASE("a comment directly after a value ends the value") {
  const Document doc = parse("{\"a\": 12// twelve\n}");
  CHECK(doc.errors.empty());
  CHECK(doc.root->find("a")->value.number == 12);
  CHECK(doc.comments.size() == 1);
}

TEST_CASE("trailing commas are recorded, not errors") {
  const std::string text = "{\n  \"betas\": [0.9, 0.999,],\n  \"eps\": 1e-8,\n}";
  const Document doc = parse(text);
  CHECK(doc.errors.empty());
  REQUIRE(doc.trailingCommas.size() == 2);
  CHECK(doc.trailingCommas[0].begin == offsetOf(text, ",]"));
  CHECK(doc.trailingCommas[1].begin == offsetOf(text, ",\n}"));
  CHECK(slice(text, doc.trailingCommas[1]) == ",");
  CHECK(doc.root->members().size() == 2);
  CHECK(doc.root->find("betas")->value.elements().size() == 2);
}

TEST_CASE("a comma before a comment and the closing brace is still trailing") {
  const Document doc = parse("{\"a\": 1, // last\n}");
  CHECK(doc.errors.empty());
  CHECK(doc.trailingCommas.size() == 1);
}

TEST_CASE("duplicate keys are kept and recorded with the first occurrence") {
  const std::string text =
      "{\"zero_optimization\": {\"stage\": 2, \"stage\": 3, \"stage\": 1}, \"list\": [{\"k\": 1, \"k\": 2}], "
      "\"zero_optimization\": {}}";
  const Document doc = parse(text);
  CHECK(doc.errors.empty());
  REQUIRE(doc.duplicates.size() == 4);
  CHECK(doc.duplicates[0].path == "zero_optimization.stage");
  CHECK(doc.duplicates[0].first.begin == offsetOf(text, "\"stage\""));
  CHECK(doc.duplicates[0].duplicate.begin == offsetOf(text, "\"stage\"", 1));
  CHECK(doc.duplicates[1].first.begin == offsetOf(text, "\"stage\""));
  CHECK(doc.duplicates[1].duplicate.begin == offsetOf(text, "\"stage\"", 2));
  CHECK(doc.duplicates[2].path == "list[0].k");
  CHECK(doc.duplicates[3].path == "zero_optimization");
  CHECK(slice(text, doc.duplicates[3].duplicate) == "\"zero_optimization\"");
  // Both members stay, in source order; find() returns the first.
  CHECK(doc.root->members().size() == 3);
  CHECK(doc.root->find("zero_optimization")->value.members().size() == 3);
}

TEST_CASE("duplicates are found in large objects too") {
  std::string text = "{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  text += "\"k7\": 0, \"k99\": 0}";
  const Document doc = parse(text);
  CHECK(doc.errors.empty());
  REQUIRE(doc.duplicates.size() == 2);
  CHECK(doc.duplicates[0].path == "k7");
  CHECK(doc.duplicates[1].path == "k99");
  CHECK(doc.duplicates[1].first.begin == offsetOf(text, "\"k99\""));
}

TEST_CASE("keys that decode equal are duplicates") {
  const Document doc = parse(R"({"a": 1, "\u0061": 2})");
  CHECK(doc.duplicates.size() == 1);
}

// The document's storage: nodes point into arenas the Document owns, so they stay valid
// when the Document moves, and a root object read again after an early '}' keeps all its members.
#include <doctest/doctest.h>

#include "analysis/json/document.h"
#include "tests/unit/json/test_support.h"

#include <string>
#include <utility>

using namespace dsls::json;
using dsls::json::test::offsetOf;

TEST_CASE("a moved document keeps its nodes and strings") {
  const std::string text = R"({"name": "a string longer than any small-string buffer", "list": [1, {"k": "v"}]})";
  Document first = parse(text);
  Document doc = std::move(first);
  REQUIRE(doc.root);
  CHECK(doc.root->find("name")->value.string == "a string longer than any small-string buffer");
  const Node& list = doc.root->find("list")->value;
  REQUIRE(list.elements().size() == 2);
  CHECK(list.elements()[0].number == 1);
  CHECK(list.elements()[1].find("k")->value.string == "v");
}

TEST_CASE("members after an early '}' join the root, nested values intact, duplicates found across the '}'") {
  const std::string text = R"({"a": 1, "b": {"c": [1, 2]}}, "d": {"e": true}, "a": 3})";
  const Document doc = parse(text);
  REQUIRE(doc.root);
  REQUIRE(doc.root->members().size() == 4);
  CHECK(doc.root->members()[1].value.find("c")->value.elements().size() == 2);
  CHECK(doc.root->members()[2].key == "d");
  CHECK(doc.root->members()[2].value.find("e")->value.boolean);
  REQUIRE(doc.duplicates.size() == 1);
  CHECK(doc.duplicates[0].path == "a");
  CHECK(doc.duplicates[0].duplicate.begin == offsetOf(text, "\"a\"", 1));
}

TEST_CASE("escaped strings and keys are decoded into the document") {
  const Document doc = parse(R"({"k\u00e9y": "tab\there", "plain": "x"})");
  REQUIRE(doc.root);
  CHECK(doc.root->members()[0].key == "k\xC3\xA9y");
  CHECK(doc.root->members()[0].value.string == "tab\there");
  CHECK(doc.root->find("plain")->value.string == "x");
}

// The member edits the rule fixes are built from: removing a member keeps the rest of
// the text byte-identical and the JSON valid, whatever the layout.
#include <doctest/doctest.h>

#include "analysis/config/rules/rule_support.h"
#include "tests/unit/config/config_test_support.h"

using namespace dsls;

namespace {

// Removes the member `key` of the root object.
std::string without(const std::string& text, const std::string& key) {
  json::Document doc = json::parse(text);
  REQUIRE(doc.root);
  const json::Member* m = doc.root->find(key);
  REQUIRE(m);
  return test::applyEdits(text, {config::rules::removeMember(text, *doc.root, *m)});
}

}  // namespace

TEST_CASE("removing a member on its own line takes the line") {
  std::string text = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}\n";
  CHECK(without(text, "a") == "{\n  \"b\": 2,\n  \"c\": 3\n}\n");
  CHECK(without(text, "b") == "{\n  \"a\": 1,\n  \"c\": 3\n}\n");
  CHECK(without(text, "c") == "{\n  \"a\": 1,\n  \"b\": 2\n}\n");
}

TEST_CASE("removing from a one-line object") {
  std::string text = "{\"a\": 1, \"b\": {\"x\": [1, 2]}, \"c\": 3}";
  CHECK(without(text, "a") == "{\"b\": {\"x\": [1, 2]}, \"c\": 3}");
  CHECK(without(text, "b") == "{\"a\": 1, \"c\": 3}");
  CHECK(without(text, "c") == "{\"a\": 1, \"b\": {\"x\": [1, 2]}}");
  CHECK(without("{\"only\": true}", "only") == "{}");
  CHECK(without("{\n  \"only\": true\n}", "only") == "{\n}");
}

TEST_CASE("removing keeps trailing commas and CRLF line ends consistent") {
  CHECK(without("{\n  \"a\": 1,\n  \"b\": 2,\n}", "b") == "{\n  \"a\": 1,\n}");
  CHECK(without("{\r\n  \"a\": 1,\r\n  \"b\": 2\r\n}", "a") == "{\r\n  \"b\": 2\r\n}");
}

TEST_CASE("every removal and move leaves valid JSON") {
  std::string text = "{\n  \"zero_optimization\": {\"stage\": 2},\n  \"round_robin_gradients\": true\n}\n";
  json::Document doc = json::parse(text);
  const json::Member* m = doc.root->find("round_robin_gradients");
  const json::Node* zero = config::rules::objectOf(doc.root->find("zero_optimization"));
  REQUIRE(m);
  REQUIRE(zero);
  std::string moved = test::applyEdits(text, config::rules::moveMember(text, *doc.root, *m, *zero));
  CHECK(moved == "{\n  \"zero_optimization\": {\"stage\": 2, \"round_robin_gradients\": true}\n}\n");
  CHECK(json::parse(moved).errors.empty());
}

TEST_CASE("quote escapes what JSON needs") {
  CHECK(config::rules::quote("a\"b\\c\n") == "\"a\\\"b\\\\c\\n\"");
}

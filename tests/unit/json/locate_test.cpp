// locate(): what the cursor is on, for hover and completion.
#include "analysis/json/locate.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/json/document.h"
#include "analysis/json/path.h"
#include "tests/unit/json/test_support.h"

using namespace dsls::json;
using dsls::json::test::offsetOf;
using Path = std::vector<std::string>;

namespace {
const std::string kText =
    "{\n"
    "  \"zero_optimization\": {\n"
    "    \"stage\": 3,\n"
    "    \"offload_param\": { }\n"
    "  },\n"
    "  \"optimizer\": {\"params\": {\"betas\": [0.9, 0.999]}}\n"
    "}\n";
}

TEST_CASE("on a key") {
  const Document doc = parse(kText);
  REQUIRE(doc.errors.empty());
  const Location loc = locate(doc, offsetOf(kText, "stage") + 2);
  CHECK(loc.onKey);
  REQUIRE(loc.member != nullptr);
  CHECK(loc.member->key == "stage");
  CHECK(loc.path == Path{"zero_optimization", "stage"});
  CHECK(loc.node == &doc.root->find("zero_optimization")->value);
  CHECK(loc.enclosingObject == loc.node);
  CHECK(loc.enclosingObjectPath == Path{"zero_optimization"});
  // The opening quote counts as part of the key.
  CHECK(locate(doc, offsetOf(kText, "\"stage\"")).onKey);
}

TEST_CASE("on a value") {
  const Document doc = parse(kText);
  const Location loc = locate(doc, offsetOf(kText, "3,"));
  CHECK_FALSE(loc.onKey);
  REQUIRE(loc.node != nullptr);
  CHECK(loc.node->kind == Kind::Number);
  CHECK(loc.member->key == "stage");
  CHECK(loc.path == Path{"zero_optimization", "stage"});
  // Right after the value still refers to it.
  CHECK(locate(doc, offsetOf(kText, "3,") + 1).node == loc.node);
}

TEST_CASE("inside an array element") {
  const Document doc = parse(kText);
  const Location loc = locate(doc, offsetOf(kText, "0.999") + 3);
  REQUIRE(loc.node != nullptr);
  CHECK(loc.node->number == 0.999);
  CHECK(loc.member == nullptr);
  CHECK(loc.path == Path{"optimizer", "params", "betas", "[1]"});
  CHECK(joinPath(loc.path) == "optimizer.params.betas[1]");
  CHECK(loc.enclosingObjectPath == Path{"optimizer", "params"});
}

TEST_CASE("inside an empty object") {
  const Document doc = parse(kText);
  const std::size_t inside = offsetOf(kText, "{ }") + 1;
  const Location loc = locate(doc, inside);
  CHECK(loc.member == nullptr);
  CHECK_FALSE(loc.onKey);
  REQUIRE(loc.enclosingObject != nullptr);
  CHECK(loc.enclosingObject == &doc.root->find("zero_optimization")->value.find("offload_param")->value);
  CHECK(loc.enclosingObjectPath == Path{"zero_optimization", "offload_param"});
  CHECK(loc.path == Path{"zero_optimization", "offload_param"});
  // On the opening brace itself the cursor is before it: the parent encloses it.
  const Location before = locate(doc, inside - 1);
  CHECK(before.enclosingObjectPath == Path{"zero_optimization"});
  CHECK(before.member->key == "offload_param");
}

TEST_CASE("between members, on blank lines of an object") {
  const Document doc = parse(kText);
  const Location loc = locate(doc, offsetOf(kText, "\n  \"optimizer\"") + 1);
  CHECK(loc.member == nullptr);
  CHECK(loc.enclosingObject == &*doc.root);
  CHECK(loc.enclosingObjectPath.empty());
  CHECK(loc.path.empty());
}

TEST_CASE("outside the root") {
  const Document doc = parse(kText);
  const Location loc = locate(doc, kText.size());
  CHECK(loc.node == nullptr);
  CHECK(loc.enclosingObject == nullptr);
  CHECK(locate(parse(""), 0).node == nullptr);
}

TEST_CASE("after a colon with the value not typed yet") {
  const std::string text = "{\n  \"zero_optimization\": {\n    \"stage\": \n  }\n}";
  const Document doc = parse(text);
  const Location loc = locate(doc, offsetOf(text, ": \n") + 2);
  REQUIRE(loc.member != nullptr);
  CHECK(loc.member->key == "stage");
  CHECK_FALSE(loc.onKey);
  CHECK(loc.node->kind == Kind::Invalid);
  CHECK(loc.path == Path{"zero_optimization", "stage"});
  CHECK(loc.enclosingObjectPath == Path{"zero_optimization"});
}

TEST_CASE("a half-typed key at the end of an unclosed file") {
  const std::string text = "{\n  \"train_batch_size\": 8,\n  \"zero_optimization\": {\n    \"sta";
  const Document doc = parse(text);
  const Location loc = locate(doc, text.size());
  CHECK(loc.onKey);
  REQUIRE(loc.member != nullptr);
  CHECK(loc.member->key == "sta");
  CHECK(loc.enclosingObjectPath == Path{"zero_optimization"});

  // A fresh line at the end of an unclosed object is still inside it.
  const std::string open = "{\n  \"fp16\": {\n    ";
  const Location fresh = locate(parse(open), open.size());
  CHECK(fresh.enclosingObjectPath == Path{"fp16"});
  CHECK(fresh.member == nullptr);
}

TEST_CASE("a root object without its opening brace encloses its first key") {
  const std::string text = "\"fp16\": {\"enabled\": true},\n\"bf16\": {}\n}";
  const Document doc = parse(text);
  const Location loc = locate(doc, 0);
  CHECK(loc.onKey);
  CHECK(loc.enclosingObject == &*doc.root);
}

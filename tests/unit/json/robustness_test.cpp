// Hostile input: deep nesting, NUL bytes, invalid UTF-8, random damage. Nothing
// may crash, hang or overflow the stack, and every range must lie in the text.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "analysis/json/document.h"
#include "analysis/json/locate.h"
#include "analysis/json/utf8.h"
#include "tests/unit/json/test_support.h"

using namespace dsls::json;
using dsls::json::test::hasErrorContaining;
using dsls::json::test::slice;

namespace {

bool isValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8::sequenceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void checkRanges(const Node& node, std::size_t size, int depth = 0) {
  REQUIRE(depth < 2000);
  CHECK(node.range.begin <= node.range.end);
  CHECK(node.range.end <= size);
  CHECK(isValidUtf8(node.string));
  for (const Member& m : node.members()) {
    CHECK(m.range().begin == m.keyRange.begin);
    CHECK(m.range().end >= m.value.range.end);
    CHECK(isValidUtf8(m.key));
    checkRanges(m.value, size, depth + 1);
  }
  for (const Node& e : node.elements()) checkRanges(e, size, depth + 1);
}

void checkDocument(const Document& doc, std::string_view text) {
  if (doc.root) checkRanges(*doc.root, text.size());
  std::size_t previous = 0;
  for (const SyntaxError& e : doc.errors) {
    CHECK(e.range.begin <= e.range.end);
    CHECK(e.range.end <= text.size());
    CHECK(e.range.begin >= previous);  // in source order
    previous = e.range.begin;
    CHECK(isValidUtf8(e.message));
  }
  for (const auto& c : doc.comments) CHECK(c.end <= text.size());
}

}  // namespace

TEST_CASE("100,000 nested arrays: capped, skipped without recursion") {
  const std::string text(100000, '[');
  const Document doc = parse(text);
  checkDocument(doc, text);
  CHECK(hasErrorContaining(doc, "nesting deeper than 512 levels"));
  CHECK(hasErrorContaining(doc, "has no matching ']'"));
  CHECK(doc.errors.size() == 2);
  // The tree stops at the cap; destroying `doc` must not recurse deeper.
  int depth = 0;
  for (const Node* n = &*doc.root; n->kind == Kind::Array && !n->elements().empty(); n = &n->elements()[0]) ++depth;
  CHECK(depth == 512);
}

TEST_CASE("deep but balanced nesting keeps the text after it") {
  std::string text = "{\"deep\": " + std::string(600, '[') + std::string(600, ']') + ", \"after\": {\"x\": [1]}}";
  const Document doc = parse(text);
  checkDocument(doc, text);
  REQUIRE(doc.errors.size() == 1);
  CHECK(doc.errors[0].message == "nesting deeper than 512 levels; this value is skipped");
  CHECK(doc.root->find("after")->value.find("x")->value.elements().size() == 1);
  CHECK(doc.root->closed);
}

TEST_CASE("the depth cap is configurable") {
  ParseOptions options;
  options.maxDepth = 2;
  const std::string text = R"({"a": {"b": {"c": 1}}, "d": 2})";
  const Document doc = parse(text, options);
  REQUIRE(doc.errors.size() == 1);
  const Node& b = doc.root->find("a")->value.find("b")->value;
  CHECK(b.kind == Kind::Invalid);
  CHECK(slice(text, b.range) == "{\"c\": 1}");
  CHECK(doc.root->find("d")->value.number == 2);
}

TEST_CASE("NUL bytes are data, never the end of the text") {
  using namespace std::string_literals;
  const std::string text = "{\"a\": \"x\0y\", \"b\0\": 1, \0 \"c\": 2}"s;
  const Document doc = parse(text);
  checkDocument(doc, text);
  CHECK(doc.root->find("a")->value.string == std::string("x\0y", 3));
  CHECK(doc.root->find(std::string_view("b\0", 2)) != nullptr);
  CHECK(doc.root->find("c")->value.number == 2);
  CHECK(hasErrorContaining(doc, "U+0000"));
  CHECK(hasErrorContaining(doc, "\\x00"));  // quoted safely in the message
}

TEST_CASE("invalid UTF-8 is reported once per run and decoded as U+FFFD") {
  const std::string text = "{\"k\xff\xfe\": \"v\xc3\", \"ok\": \"\xc3\xa9\", \"\xed\xa0\x80\": 1}";
  const Document doc = parse(text);
  checkDocument(doc, text);
  int utf8Errors = 0;
  for (const SyntaxError& e : doc.errors)
    if (e.message.find("not valid UTF-8") != std::string::npos) ++utf8Errors;
  CHECK(utf8Errors == 3);
  CHECK(doc.root->members().size() == 3);
  CHECK(doc.root->members()[0].key == "k\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(doc.root->find("ok")->value.string == "é");
}

TEST_CASE("random damage to a real config never breaks the invariants") {
  const std::string base = R"({
  "train_batch_size": 16, // comment
  "optimizer": {"type": "AdamW", "params": {"lr": 3e-5, "betas": [0.9, 0.999], "eps": 1e-8}},
  "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu", "pin_memory": true}},
  "fp16": {"enabled": "auto", "loss_scale": 0}, /* block */ "name": "\u00e9\ud83d\ude00\n"
})";
  static const char kAlphabet[] = "{}[],:\"\\/*#\n \t\0\xff\xc3tfn0-.eE";
  const std::string alphabet(kAlphabet, sizeof kAlphabet - 1);
  std::mt19937 rng(12345);
  for (int round = 0; round < 3000; ++round) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t pos = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text.erase(pos, 1 + rng() % 4);
          break;
        case 1:
          text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
        default:
          text[pos] = alphabet[rng() % alphabet.size()];
          break;
      }
    }
    if (round % 7 == 0) text.resize(rng() % (text.size() + 1));  // truncated, as while typing
    const Document doc = parse(text);
    checkDocument(doc, text);
    for (std::size_t off = 0; off <= text.size(); off += 1 + rng() % 13) {
      const Location loc = locate(doc, off);
      if (loc.onKey) CHECK(loc.member != nullptr);
    }
  }
}

TEST_CASE("skipAscii stops at the first byte that is not ASCII, wherever it falls in a block") {
  for (std::size_t length : {0u, 1u, 7u, 8u, 31u, 32u, 33u, 100u}) {
    const std::string ascii(length, 'a');
    CHECK(utf8::skipAscii(ascii, 0) == length);
    for (std::size_t at = 0; at < length; ++at) {
      std::string text = ascii;
      text[at] = '\xC3';
      CAPTURE(length);
      CAPTURE(at);
      CHECK(utf8::skipAscii(text, 0) == at);
      CHECK(utf8::skipAscii(text, at + 1) == length);
    }
  }
}

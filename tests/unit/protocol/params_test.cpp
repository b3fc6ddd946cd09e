#include "protocol/params.h"

#include <doctest/doctest.h>

using dsls::protocol::Json;
using dsls::protocol::ParamError;
using dsls::protocol::parseParams;

namespace {

std::string errorOf(const char* text) {
  try {
    (void)parseParams<dsls::protocol::CodeActionParams>(Json::parse(text));
  } catch (const ParamError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("params: a code action request parses into its struct") {
  auto p = parseParams<dsls::protocol::CodeActionParams>(Json::parse(
      R"({"textDocument":{"uri":"file:///a.json"},"range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},
          "context":{"diagnostics":[],"only":["quickfix","source"]}})"));
  CHECK(p.uri == "file:///a.json");
  CHECK(p.range.start.line == 1);
  CHECK(p.range.end.character == 4);
  CHECK(p.only == std::vector<std::string>{"quickfix", "source"});
}

TEST_CASE("params: errors name the JSON path of the first problem") {
  CHECK(errorOf(R"({"range":{}})") == "params.textDocument: missing");
  CHECK(errorOf(R"({"textDocument":{"uri":7},"range":{}})") == "params.textDocument.uri: expected a string, got 7");
  CHECK(errorOf(R"({"textDocument":{"uri":"u"},"range":{"start":{"line":-1,"character":0},"end":{}}})") ==
        "params.range.start.line: expected a non-negative integer, got -1");
  CHECK(errorOf(R"({"textDocument":{"uri":"u"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"only":["quickfix",3]}})") ==
        "params.context.only[1]: expected a string, got 3");
  CHECK(errorOf("[]") == "params: expected an object, got []");
}

TEST_CASE("params: coordinates past 2^32 are clamped, not wrapped") {
  auto p = parseParams<dsls::protocol::PositionParams>(
      Json::parse(R"({"textDocument":{"uri":"u"},"position":{"line":99999999999,"character":0}})"));
  CHECK(p.position.line == 4294967295u);
}

TEST_CASE("params: didOpen and didChange texts move out of the message, with the same checks") {
  Json open = Json::parse(R"({"textDocument":{"uri":"u","languageId":"json","version":3,"text":"{\"a\": 1}"}})");
  auto o = dsls::protocol::takeParams<dsls::protocol::DidOpenParams>(std::move(open));
  CHECK(o.uri == "u");
  CHECK(o.version == 3);
  CHECK(o.text == "{\"a\": 1}");
  Json change = Json::parse(R"({"textDocument":{"uri":"u","version":4},"contentChanges":[
      {"text":"whole"},{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"text":"x"}]})");
  Json& first = change["contentChanges"][0]["text"];
  auto c = dsls::protocol::takeParams<dsls::protocol::DidChangeParams>(std::move(change));
  REQUIRE(c.changes.size() == 2);
  CHECK(c.changes[0].text == "whole");
  CHECK(c.changes[1].text == "x");
  CHECK(first == "");  // moved, not copied
  CHECK_THROWS_WITH_AS(dsls::protocol::takeParams<dsls::protocol::DidOpenParams>(
                           Json::parse(R"({"textDocument":{"uri":"u","text":7}})")),
                       "params.textDocument.text: expected a string, got 7", ParamError);
}

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

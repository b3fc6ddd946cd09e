#include "protocol/jsonrpc.h"

#include <doctest/doctest.h>

using namespace dsls::protocol;
using Kind = Incoming::Kind;

TEST_CASE("requests, notifications and responses are told apart") {
  auto req = parseMessage(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  CHECK(req.kind == Kind::Request);
  CHECK(req.id == 1);
  CHECK(req.method == "initialize");
  auto strId = parseMessage(R"({"jsonrpc":"2.0","id":"abc","method":"shutdown"})");
  CHECK(strId.kind == Kind::Request);
  CHECK(strId.id == "abc");
  auto nullParams = parseMessage(R"({"jsonrpc":"2.0","id":2,"method":"shutdown","params":null})");
  CHECK(nullParams.kind == Kind::Request);
  CHECK(nullParams.params.is_null());
  auto note = parseMessage(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  CHECK(note.kind == Kind::Notification);
  auto resp = parseMessage(R"({"jsonrpc":"2.0","id":3,"result":null})");
  CHECK(resp.kind == Kind::Response);
  auto err = parseMessage(R"({"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"x"}})");
  CHECK(err.kind == Kind::Response);
}

TEST_CASE("bodies that are not JSON are parse errors") {
  auto m = parseMessage("{not json");
  CHECK(m.kind == Kind::Invalid);
  CHECK(m.errorCode == ErrorCode::ParseError);
  CHECK(m.id.is_null());
}

TEST_CASE("structurally wrong messages are invalid requests") {
  CHECK(parseMessage("[1,2]").errorCode == ErrorCode::InvalidRequest);
  CHECK(parseMessage("42").errorCode == ErrorCode::InvalidRequest);
  CHECK(parseMessage(R"({"id":1,"method":"x"})").errorCode == ErrorCode::InvalidRequest);
  CHECK(parseMessage(R"({"jsonrpc":"2.0","id":1,"method":7})").errorCode == ErrorCode::InvalidRequest);
  CHECK(parseMessage(R"({"jsonrpc":"2.0","id":{},"method":"x"})").errorCode == ErrorCode::InvalidRequest);
  CHECK(parseMessage(R"({"jsonrpc":"2.0","id":1})").errorCode == ErrorCode::InvalidRequest);
  CHECK(parseMessage(R"({"jsonrpc":"2.0","id":1,"method":"x","params":3})").errorCode == ErrorCode::InvalidParams);
}

TEST_CASE("deep nesting is refused before parsing") {
  std::string deep(100000, '[');
  auto m = parseMessage(deep);
  CHECK(m.kind == Kind::Invalid);
  CHECK(m.errorCode == ErrorCode::ParseError);
  CHECK(m.errorMessage.find("nested") != std::string::npos);
  // Brackets inside strings do not count.
  std::string inString = R"({"jsonrpc":"2.0","method":"x","params":{"t":")" + std::string(1000, '[') + "\"}}";
  CHECK(parseMessage(inString).kind == Kind::Notification);
}

TEST_CASE("nestingDepth counts outside strings only") {
  CHECK(nestingDepth(R"({"a":[1,{"b":"[[["}]})", 100) == 3);
  CHECK(nestingDepth(R"("\"[")", 100) == 0);
}

TEST_CASE("error replies carry the code") {
  auto e = makeError(nullptr, ErrorCode::MethodNotFound, "nope");
  CHECK(e["error"]["code"] == -32601);
  CHECK(e["id"].is_null());
}

TEST_CASE("a message's strings, nested values and duplicate keys parse as nlohmann's DOM reads them") {
  const char* body =
      R"({"jsonrpc":"2.0","id":7,"method":"m","params":{"text":"a\nb","list":[1,-2,3.5,true,null,[{}],"s"],"k":1,"k":2}})";
  auto m = parseMessage(body);
  REQUIRE(m.kind == Kind::Request);
  Json expected = Json::parse(body)["params"];
  CHECK(m.params == expected);
  CHECK(m.params["k"] == 2);
  CHECK(m.params["text"] == "a\nb");
  CHECK(parseMessage(R"({"jsonrpc":"2.0","id":1,"method":"m"} trailing)").errorCode == ErrorCode::ParseError);
}

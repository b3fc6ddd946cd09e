#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "protocol/jsonrpc.h"
#include "protocol/lifted_strings.h"

using namespace dsls::protocol;

namespace {

// Lifting every string (a threshold of 1 byte) must give what the plain parse gives, errors included.
void checkSameAsPlainParse(const std::string& body) {
  CAPTURE(body);
  Incoming plain = parseMessage(std::string_view(body));
  Incoming lifted = parseOwnedMessage(std::string(body), 1);
  CHECK(static_cast<int>(lifted.kind) == static_cast<int>(plain.kind));
  CHECK(lifted.id == plain.id);
  CHECK(lifted.method == plain.method);
  CHECK(lifted.params == plain.params);
  CHECK(lifted.result == plain.result);
  CHECK(lifted.error == plain.error);
  CHECK(static_cast<int>(lifted.errorCode) == static_cast<int>(plain.errorCode));
  CHECK(lifted.errorMessage == plain.errorMessage);
}

const std::vector<std::string> kBodies = {
    R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.log","languageId":"log","version":1,"text":"line one\nline \"two\"\t\\ \/ \b\f\r é \u00e9 \ud83d\ude00 \u0000 end"}}})",
    R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"first"},{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"text":"second"}]}})",
    R"({"jsonrpc":"2.0","id":"s\"q","method":"m","params":{"k":"one","k":"two","n":{"k":"x"},"n":{"j":"y"}}})",
    R"({"jsonrpc":"2.0","id":3,"result":["a",["b",{"c\u0041":"d"}],"e"]})",
    R"({"jsonrpc":"2.0","id":3,"method":"m","params":["x"]} trailing)",
    R"({"jsonrpc":"2.0","id":3,"method":"m","params":{"t":"bad \x escape"}})",
    R"({"jsonrpc":"2.0","id":3,"method":"m","params":{"t":"lone \udc00 surrogate"}})",
    R"({"jsonrpc":"2.0","id":3,"method":"m","params":{"t":"high \ud800 alone"}})",
    R"({"jsonrpc":"2.0","id":3,"method":"m","params":{"t":"short \u12"}})",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"m\",\"params\":{\"t\":\"raw\ttab\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"m\",\"params\":{\"t\":\"bad utf8 \xC3\x28 \"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"m\",\"params\":{\"t\":\"overlong \xC0\xAF \"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"m\",\"params\":{\"t\":\"surrogate in utf8 \xED\xA0\x80 \"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"m\",\"params\":{\"t\":\"four \xF0\x9F\x98\x80 ok\"}}",
    R"({"jsonrpc":"2.0","id":3,"method":"m","params":{"t":"unterminated})",
    R"("just a string")",
    R"(["batch","x"])",
    R"({"jsonrpc":"2.0","method":"m","params":{"a":[[["deep"]],"z"],"b":[]}})",
};

}  // namespace

TEST_CASE("lifting string values out of a body parses to the same message, errors included") {
  for (const std::string& body : kBodies) checkSameAsPlainParse(body);
}

TEST_CASE("lifting agrees with the plain parse on corrupted bodies") {
  std::mt19937 random(12345);
  const std::string alphabet = "\"\\{}[],:u0dD8Ca \n\x01\xC3\xA9\xED";
  for (const std::string& original : kBodies) {
    for (int round = 0; round < 200; ++round) {
      std::string body = original;
      std::size_t at = random() % body.size();
      switch (random() % 3) {
        case 0: body[at] = alphabet[random() % alphabet.size()]; break;
        case 1: body.erase(at, 1); break;
        default: body.insert(at, 1, alphabet[random() % alphabet.size()]); break;
      }
      checkSameAsPlainParse(body);
    }
  }
}

TEST_CASE("a large text is decoded in the body's own buffer and put back where it was") {
  std::string text(200'000, 'x');
  text[5] = '\n';
  std::string escaped = text;
  escaped.replace(5, 1, "\\n");
  std::string body = R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"u","text":")" +
                     escaped + R"(","version":4}}})";
  body.shrink_to_fit();  // as the frame reader sizes it: the body's length exactly
  const char* buffer = body.data();
  LiftedBody lifted;
  std::string consumed = body;
  REQUIRE(liftLargeStrings(consumed, lifted) == LiftOutcome::Lifted);
  REQUIRE(lifted.strings.size() == 1);
  CHECK(lifted.strings[0].value == text);
  CHECK(lifted.envelope ==
        R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"u","text":"","version":4}}})");
  CHECK(lifted.strings[0].path == std::vector<PathStep>{std::string("params"), std::string("textDocument"), std::string("text")});

  Incoming in = parseOwnedMessage(std::move(body));
  REQUIRE(in.kind == Incoming::Kind::Notification);
  const std::string& held = in.params["textDocument"]["text"].get_ref<const std::string&>();
  CHECK(held == text);
  CHECK(held.data() == buffer);  // the body's buffer, not a copy
  CHECK(in.params["textDocument"]["version"] == 4);
}

TEST_CASE("a text much shorter than its escaped form gives the room back") {
  std::string text(100'000, 'a');
  std::string escaped;
  for (std::size_t i = 0; i < text.size() / 4; ++i) escaped += "\\u0061aaa";
  std::string body = R"({"jsonrpc":"2.0","method":"m","params":{"text":")" + escaped + R"("}})";
  body.shrink_to_fit();
  Incoming in = parseOwnedMessage(std::move(body));
  const std::string& held = in.params["text"].get_ref<const std::string&>();
  CHECK(held == text);
  CHECK(held.capacity() - held.size() <= held.size() / 8);
}

TEST_CASE("a large value under a key given again later is not put back") {
  std::string big(100, 'b');
  std::string body = R"({"jsonrpc":"2.0","method":"m","params":{"p":{"text":")" + big + R"("},"p":{"text":""}}})";
  checkSameAsPlainParse(body);
  Incoming in = parseOwnedMessage(std::move(body), 50);
  CHECK(in.params["p"]["text"] == "");
}

TEST_CASE("small bodies and short strings are not lifted") {
  std::string body = R"({"jsonrpc":"2.0","method":"m","params":{"text":"short"}})";
  LiftedBody lifted;
  CHECK(liftLargeStrings(body, lifted) == LiftOutcome::None);
  CHECK(body == R"({"jsonrpc":"2.0","method":"m","params":{"text":"short"}})");
}

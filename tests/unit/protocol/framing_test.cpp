#include "protocol/framing.h"

#include <doctest/doctest.h>

using dsls::protocol::FrameEvent;
using dsls::protocol::FrameReader;

namespace {

std::vector<FrameEvent> feedAll(FrameReader& r, std::initializer_list<std::string_view> pieces) {
  std::vector<FrameEvent> out;
  for (auto p : pieces) r.feed(p, out);
  return out;
}

}  // namespace

TEST_CASE("a message split across reads comes out whole") {
  FrameReader r;
  auto out = feedAll(r, {"Content-Len", "gth: 7\r", "\n\r\n{\"a\"", ":1}"});
  REQUIRE(out.size() == 1);
  CHECK(out[0].kind == FrameEvent::Kind::Message);
  CHECK(out[0].text == "{\"a\":1}");
  CHECK_FALSE(r.midMessage());
}

TEST_CASE("several messages in one read") {
  FrameReader r;
  auto out = feedAll(r, {"Content-Length: 2\r\n\r\n{}Content-Length: 4\r\n\r\nnullContent-Length: 1\r\n\r\n1"});
  REQUIRE(out.size() == 3);
  CHECK(out[0].text == "{}");
  CHECK(out[1].text == "null");
  CHECK(out[2].text == "1");
}

TEST_CASE("Content-Type is accepted and header names are case-insensitive") {
  FrameReader r;
  auto out = feedAll(r, {"content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH:  2 \r\n\r\n[]"});
  REQUIRE(out.size() == 1);
  CHECK(out[0].text == "[]");
}

TEST_CASE("a missing Content-Length is an error and the next message still arrives") {
  FrameReader r;
  auto out = feedAll(r, {"Content-Type: x\r\n\r\n{\"lost\":1}Content-Length: 2\r\n\r\n{}"});
  REQUIRE(out.size() == 2);
  CHECK(out[0].kind == FrameEvent::Kind::Error);
  CHECK(out[1].kind == FrameEvent::Kind::Message);
  CHECK(out[1].text == "{}");
}

TEST_CASE("a non-numeric Content-Length is an error") {
  FrameReader r;
  auto out = feedAll(r, {"Content-Length: 12abc\r\n\r\nxxContent-Length: 2\r\n\r\n{}"});
  REQUIRE(out.size() == 2);
  CHECK(out[0].kind == FrameEvent::Kind::Error);
  CHECK(out[0].text.find("not a number") != std::string::npos);
  CHECK(out[1].text == "{}");
}

TEST_CASE("a Content-Length over the cap is refused without buffering the body") {
  FrameReader r;
  auto out = feedAll(r, {"Content-Length: 1000000000000\r\n\r\n", std::string(4096, 'x'),
                         "Content-Length: 2\r\n\r\n{}"});
  REQUIRE(out.size() == 2);
  CHECK(out[0].kind == FrameEvent::Kind::Error);
  CHECK(out[0].text.find("64 MiB") != std::string::npos);
  CHECK(out[1].text == "{}");
}

TEST_CASE("a Content-Length that overflows 64 bits is not a number") {
  FrameReader r;
  auto out = feedAll(r, {"Content-Length: 99999999999999999999999\r\n\r\n"});
  REQUIRE(out.size() == 1);
  CHECK(out[0].kind == FrameEvent::Kind::Error);
}

TEST_CASE("an endless header block is cut off") {
  FrameReader r;
  std::vector<FrameEvent> out;
  r.feed(std::string(20000, 'h'), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].kind == FrameEvent::Kind::Error);
  r.feed("Content-Length: 2\r\n\r\n{}", out);
  REQUIRE(out.size() == 2);
  CHECK(out[1].text == "{}");
}

TEST_CASE("an unfinished body is reported as mid-message") {
  FrameReader r;
  auto out = feedAll(r, {"Content-Length: 10\r\n\r\n{\"a\""});
  CHECK(out.empty());
  CHECK(r.midMessage());
}

TEST_CASE("frame writes the header") {
  CHECK(dsls::protocol::frame("{}") == "Content-Length: 2\r\n\r\n{}");
}

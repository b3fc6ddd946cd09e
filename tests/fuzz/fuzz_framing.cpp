// protocol::FrameReader on arbitrary bytes, fed in arbitrary pieces, and the message parse.
// Properties: feeding the same bytes whole or in pieces yields the same events;
// a framed body always comes back out unchanged, however it is split; a body parses to the
// same message, or the same error, whether its string values are lifted out first or not.
#include "tests/fuzz/fuzz_check.h"
#include "protocol/framing.h"
#include "protocol/jsonrpc.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

using dsls::protocol::FrameEvent;
using dsls::protocol::FrameReader;


std::vector<FrameEvent> feedInPieces(std::string_view bytes, std::string_view cuts) {
  FrameReader reader;
  std::vector<FrameEvent> events;
  std::size_t pos = 0, k = 0;
  while (pos < bytes.size()) {
    std::size_t piece = cuts.empty() ? bytes.size() : 1 + static_cast<unsigned char>(cuts[k++ % cuts.size()]) % 97;
    piece = std::min(piece, bytes.size() - pos);
    reader.feed(bytes.substr(pos, piece), events);
    pos += piece;
  }
  return events;
}

bool same(const std::vector<FrameEvent>& a, const std::vector<FrameEvent>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind != b[i].kind) return false;
    // Message bodies must agree exactly; error texts may name how much was buffered.
    if (a[i].kind == FrameEvent::Kind::Message && a[i].text != b[i].text) return false;
  }
  return true;
}

bool sameMessage(const dsls::protocol::Incoming& a, const dsls::protocol::Incoming& b) {
  return a.kind == b.kind && a.id == b.id && a.method == b.method && a.params == b.params && a.result == b.result &&
         a.error == b.error && a.errorCode == b.errorCode && a.errorMessage == b.errorMessage;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  // The first 8 bytes choose the piece sizes; the rest is the stream.
  std::string_view cuts = input.substr(0, std::min<std::size_t>(8, input.size()));
  std::string_view stream = input.substr(cuts.size());

  auto whole = feedInPieces(stream, {});
  auto pieces = feedInPieces(stream, cuts);
  CHECK(same(whole, pieces));

  // A well-framed body survives any split, also after a garbage prefix that ends in a blank line.
  std::string framed = dsls::protocol::frame(stream);
  auto one = feedInPieces(framed, cuts);
  CHECK(one.size() == 1 && one[0].kind == FrameEvent::Kind::Message && one[0].text == stream);

  // Every string value lifted (a 1-byte threshold), as large didOpen texts are.
  CHECK(sameMessage(dsls::protocol::parseOwnedMessage(std::string(stream), 1), dsls::protocol::parseMessage(stream)));
  return 0;
}

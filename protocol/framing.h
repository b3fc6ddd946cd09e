// Content-Length framing of the base protocol (LSP "Base Protocol").
// Incremental: bytes arrive in arbitrary pieces; whole message bodies come out.
// A bad header block is reported and skipped; the reader then resynchronises on
// the next "Content-Length" header. A declared length over the cap is refused
// before any body byte is stored, so a hostile header cannot force a large allocation.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::protocol {

struct FrameEvent {
  enum class Kind { Message, Error };
  Kind kind;
  std::string text;  // the body for Message, a description for Error
};

class FrameReader {
 public:
  static constexpr std::size_t kMaxContentLength = 64u << 20;  // 64 MiB
  static constexpr std::size_t kMaxHeaderBlock = 8u << 10;     // 8 KiB

  // Appends the complete messages and errors found so far to `out`.
  void feed(std::string_view bytes, std::vector<FrameEvent>& out);

  // True when bytes of an unfinished message are buffered (used to report a cut stream).
  bool midMessage() const { return !buffer_.empty() || state_ == State::Body; }

 private:
  enum class State { Header, Body, Resync };

  bool parseHeaderBlock(std::vector<FrameEvent>& out);
  void resync();

  State state_ = State::Header;
  std::string buffer_;
  std::size_t expected_ = 0;
};

// Frames one message body for writing.
std::string frame(std::string_view body);

}  // namespace dsls::protocol

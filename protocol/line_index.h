// Conversion between byte offsets and LSP positions in the negotiated encoding.
// Lines end at "\n", "\r\n" or a lone "\r" (protocol/line_breaks.h).
// Invalid UTF-8 bytes count as one code unit each (as if replaced by U+FFFD),
// so every byte offset maps to a position and back without loss.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace dsls::protocol {

enum class PositionEncoding { Utf8, Utf16, Utf32 };

std::string_view encodingName(PositionEncoding);

struct Position {
  std::uint32_t line = 0;
  std::uint32_t character = 0;
  bool operator==(const Position&) const = default;
};

class LineIndex {
 public:
  LineIndex() = default;
  explicit LineIndex(std::string_view text);  // the text must outlive the index

  // The index of `newText`, which is the indexed text with [begin, oldEnd) replaced by
  // `inserted`: the line starts after the edit move and those inside it are replaced, without
  // reading the rest of the text again.
  void edit(std::string_view newText, std::size_t begin, std::size_t oldEnd, std::string_view inserted);

  std::size_t lineCount() const { return lineStarts_.size(); }
  // Byte offset of the start of `line` (clamped to the last line).
  std::size_t lineStart(std::uint32_t line) const;
  // Byte offset of the end of the line's content (before its "\n", "\r\n" or "\r").
  std::size_t lineContentEnd(std::uint32_t line) const;
  std::uint32_t lineOf(std::size_t offset) const;

  // Offsets past the end clamp to the end; an offset inside a multi-byte character
  // maps to that character's start.
  Position position(std::size_t offset, PositionEncoding) const;
  // Lines past the end clamp to the end of the text; characters past the line's
  // end clamp to it; a character inside a surrogate pair maps to the pair's start.
  std::size_t offset(Position, PositionEncoding) const;

 private:
  std::string_view text_;
  // 32 bits a line, sized once: a message is at most 64 MiB (framing.h), and a tokenizer.json
  // has millions of lines.
  std::vector<std::uint32_t> lineStarts_{0};
};

// Length in bytes of the UTF-8 sequence at `s[i]`, 1 for an invalid byte.
std::size_t utf8SequenceLength(std::string_view s, std::size_t i);

}  // namespace dsls::protocol

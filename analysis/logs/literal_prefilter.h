// A cheap test run before the regex set: does the line contain any of a list of
// literals (4 bytes or more)? Each literal is anchored on its rarest run of kStride
// consecutive byte pairs; one table lookup per kStride input bytes rejects almost every
// line of a healthy log.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::logs {

// Higher is rarer in ordinary log text: lowercase letters and spaces are common.
int byteRarity(unsigned char c);

// One literal looked for by its rarest byte: memchr skips to the few places it can start,
// where a search by its first byte (a space, say) would stop at every word.
class RareByteLiteral {
 public:
  explicit RareByteLiteral(std::string_view text);
  bool in(std::string_view s) const { return find(s) != std::string_view::npos; }
  // Where the literal first occurs in `s` at or after `from`, or npos (as string_view::find).
  std::size_t find(std::string_view s, std::size_t from = 0) const;
  std::size_t size() const { return text_.size(); }

 private:
  std::string_view text_;
  std::size_t anchor_ = 0;  // offset of the rarest byte in text_
};

class LiteralPrefilter {
 public:
  explicit LiteralPrefilter(std::vector<std::string> literals);
  bool anyIn(std::string_view s) const;
  std::size_t size() const { return literals_.size(); }

  static constexpr std::size_t kStride = 3;
  static constexpr std::size_t kMinLiteral = kStride + 1;

 private:
  struct Anchor {
    std::uint16_t pair;       // bigram key
    std::uint32_t literal;    // index into literals_
    std::uint32_t offset;     // position of the bigram in the literal
  };
  std::vector<std::string> literals_;
  std::vector<Anchor> anchors_;   // sorted by pair
  // Pair -> 1 when some anchor has it: a byte per pair, as a test then costs one load (a
  // bitset, measured, was slower: its shifts cost more than the cache misses it saves).
  std::vector<std::uint8_t> pairs_ = std::vector<std::uint8_t>(65536);
  bool hasPair(std::uint16_t key) const { return pairs_[key] != 0; }
  std::vector<std::uint32_t> firstAnchor_ = std::vector<std::uint32_t>(65536);  // pair -> its first anchor
};

}  // namespace dsls::logs

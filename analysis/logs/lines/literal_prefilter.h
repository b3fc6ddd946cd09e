// Cheap tests run before any regex: which of a list of literals does a line contain?
#pragma once

#include <array>
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

// Literals (4 bytes or more) looked for in one pass over a line. Each literal belongs to a
// group; scan() gives, for each group, where the first of its literals starts. Each literal is
// anchored on its rarest run of kStride consecutive byte pairs; one table lookup per kStride
// input bytes rejects almost every position of a healthy log.
class LiteralPrefilter {
 public:
  static constexpr std::size_t kMaxGroups = 8;
  struct Literal {
    std::string text;
    std::uint8_t group = 0;
  };
  // Where the first literal of each group starts in the scanned text; npos: none occurs.
  struct Hits {
    std::array<std::size_t, kMaxGroups> first;
    Hits() { first.fill(std::string_view::npos); }
    bool has(std::size_t group) const { return first[group] != std::string_view::npos; }
  };

  explicit LiteralPrefilter(std::vector<std::string> literals);  // all in group 0
  explicit LiteralPrefilter(std::vector<Literal> literals);
  bool anyIn(std::string_view s) const;  // stops at the first literal found
  Hits scan(std::string_view s) const;   // reads the whole text
  std::size_t size() const { return literals_.size(); }
  const std::vector<Literal>& literals() const { return literals_; }

  static constexpr std::size_t kStride = 3;
  static constexpr std::size_t kMinLiteral = kStride + 1;

 private:
  struct Anchor {
    std::uint16_t pair;    // bigram key
    std::uint8_t group;    // the literal's
    std::uint32_t offset;  // position of the bigram in the literal
    std::uint32_t size;    // the literal's
    const char* text;      // the literal's bytes (in literals_)
  };
  // Calls found(group, start) for each literal occurrence the stride meets, in the order the
  // anchors are met; stops when it returns true.
  template <typename Found>
  void forEachHit(std::string_view s, Found&& found) const;
  std::vector<Literal> literals_;
  std::vector<Anchor> anchors_;   // sorted by pair
  // Pair -> 1 when some anchor has it: a byte per pair, as a test then costs one load (a
  // bitset, measured, was slower: its shifts cost more than the cache misses it saves).
  std::vector<std::uint8_t> pairs_ = std::vector<std::uint8_t>(65536);
  bool hasPair(std::uint16_t key) const { return pairs_[key] != 0; }
  std::vector<std::uint32_t> firstAnchor_ = std::vector<std::uint32_t>(65536);  // pair -> its first anchor
};

}  // namespace dsls::logs

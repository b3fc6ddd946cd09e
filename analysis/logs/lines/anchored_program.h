// The automaton of a line-prefix pattern, for one question RE2 cannot answer: after a match
// T, which bytes could make a longer match? When the byte after T on another line is none of
// them, RE2 would give that line the same match as T's line (its first bytes are T, and no
// match can reach past them), so a remembered match can stand in for an RE2 call.
// Only the subset of RE2 syntax the prefix rows are written in is understood (literals,
// classes, \d \w \s, groups, alternation, greedy and lazy repeats); assertions such as \b,
// ^ and $ look past the match and are refused, as is any other syntax.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace dsls::logs {

class AnchoredProgram {
 public:
  using ByteSet = std::array<std::uint64_t, 4>;

  // Std::nullopt when the pattern uses syntax outside the subset.
  static std::optional<AnchoredProgram> compile(std::string_view pattern);
  // The automaton of a pattern with every \b taken to hold: it accepts at least the
  // pattern's matches, so where it dies the pattern has none (deadAfter), but what it says
  // of a match's continuations does not hold for the pattern.
  static std::optional<AnchoredProgram> compileLoose(std::string_view pattern);

  // The bytes that could follow `text` within a match starting where `text` starts (empty
  // when no match can go on, or `text` is no start of one).
  ByteSet continuations(std::string_view text) const;
  // How many bytes of `text` the automaton reads before no match can go on, when no match
  // ends within them: a text that starts with those bytes has no match (std::nullopt when
  // a match can end within `text`, or one can go on past it).
  std::optional<std::size_t> deadAfter(std::string_view text) const;
  static bool contains(const ByteSet& set, unsigned char b);
  // True when each byte class holds all ten digits or none: a digit put in place of another
  // changes nothing the automaton does.
  bool treatsDigitsAlike() const;
  int groups() const { return groups_; }

 private:
  enum class Op : std::uint8_t { Class, Split, Jump, Save, Match };
  struct Inst {
    Op op;
    int x = 0;  // Class: index into classes_; Split/Jump: target; Save: slot
    int y = 0;  // Split: the second choice
  };
  friend struct ProgramBuilder;

  struct Run {
    std::vector<int> live;  // pcs of the Class instructions alive after `read` bytes
    std::size_t read = 0;
    bool matchReachable = false;  // a Match was reached along the way
  };
  void run(std::string_view text, Run& r) const;
  static std::optional<AnchoredProgram> build(std::string_view pattern, bool boundariesHold);

  std::vector<Inst> insts_;
  std::vector<ByteSet> classes_;
  int groups_ = 0;
};

}  // namespace dsls::logs

// Per-process line tags that no row of the prefix table knows, learned from the log itself:
// a short leading token that repeats across many lines with one small integer that varies
// ("3: " from srun --label, "[3] " from Intel MPI's -l, "rank-3| " from a job wrapper) is the
// launcher's number for the process that printed the line. A token whose numbers never
// repeat (a paste's line numbering) is not a process tag.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::logs {

struct TagMatch {
  std::size_t length = 0;  // bytes of the tag, with the blank after it
  int process = 0;         // the number the tag gives the process
  std::string shape;       // the tag with its digits as '#', e.g. "[#] "
};

class ProcessTags {
 public:
  // Lines looked at while learning; a log shows its tags from its first lines.
  static constexpr std::size_t kLearnLines = 4000;

  // One line of the log, without its terminator. `knownRank`: the prefix table already gives
  // the line a rank or a host, so its leading token is not an unknown tag.
  void observe(std::string_view line, bool knownRank);
  bool learning() const { return observed_ < kLearnLines; }

  // The learned tag that starts `line`, if any.
  std::optional<TagMatch> match(std::string_view line) const;
  bool empty() const { return learned_.empty(); }

 private:
  struct Candidate {
    std::string shape;
    std::size_t lines = 0;
    std::vector<int> values;  // distinct (bounded)
    bool repeated = false;    // some number is on more than one line
  };
  std::vector<Candidate> candidates_;  // bounded
  std::vector<std::string> learned_;
  std::size_t observed_ = 0;
};

// The leading token of `line` that could be a process tag, and its number: at most 24 bytes
// without blanks, ending in ':', ']', '>' or '|' and a blank, holding one run of at most five
// digits, with text after it; nullopt otherwise. Exposed for tests.
std::optional<TagMatch> tagCandidate(std::string_view line);

}  // namespace dsls::logs

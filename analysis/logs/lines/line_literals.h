// The literals the analyser looks for in every message, found in one pass over it: any
// fingerprint's (the regexes run only on a message that holds one) and each metric name.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/logs/lines/literal_prefilter.h"

namespace dsls::logs {

enum class LineLiteral : std::uint8_t {
  Fingerprint,     // any literal of the fingerprint table
  Loss,            // "loss"
  GradNorm,        // "grad_norm": HF Trainer dicts
  GradNormSpaced,  // "grad norm": Megatron's iteration lines ("grad norm: ... |")
  Skipped,         // "skipped=": DeepSpeed's progress line
};

// The text of a metric name (not of Fingerprint).
std::string_view lineLiteralText(LineLiteral name);

class LineLiteralHits {
 public:
  explicit LineLiteralHits(const LiteralPrefilter::Hits& hits, std::uint64_t shape = 0) : hits_(hits), shape_(shape) {}
  // Where the first occurrence starts in the message; npos: none.
  std::size_t first(LineLiteral name) const { return hits_.first[static_cast<std::size_t>(name)]; }
  bool has(LineLiteral name) const { return first(name) != std::string_view::npos; }
  // Messages with the same shape number (not 0) have the same bytes once their digits are
  // folded, so a reader may remember what it found where for the shape (LineLiteralMemo).
  std::uint64_t shape() const { return shape_; }

 private:
  LiteralPrefilter::Hits hits_;
  std::uint64_t shape_ = 0;
};

LineLiteralHits scanLineLiterals(std::string_view message);

// The scans of the last few messages, each kept with the message's bytes, digits folded: no
// literal holds a digit, so a message that differs from a remembered one in its digits alone
// (the next step's metrics) holds the same literals at the same places. Compared without a
// hash (a log's lines come in runs of a few shapes; other shapes differ in their first
// bytes); the least recently used is replaced. One per analysis, not shared between threads.
class LineLiteralMemo {
 public:
  LineLiteralHits scan(std::string_view message);

  static constexpr std::size_t kEntries = 4;
  static constexpr std::size_t kMaxBytes = 256;

 private:
  struct Entry {
    std::string folded;
    LiteralPrefilter::Hits hits;
    std::uint32_t lastUse = 0;  // 0: empty
    std::uint64_t shape = 0;    // a number no other entry had
  };
  std::array<Entry, kEntries> entries_{};
  std::uint32_t clock_ = 0;
  std::uint64_t shapes_ = 0;
};

// True when no literal holds a digit, as LineLiteralMemo needs (checked by a test).
bool lineLiteralsHoldNoDigit();

}  // namespace dsls::logs

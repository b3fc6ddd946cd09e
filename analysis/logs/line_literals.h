// The literals the analyser looks for in every message, found in one pass over it: any
// fingerprint's (the regexes run only on a message that holds one) and each metric name.
#pragma once

#include <cstdint>
#include <string_view>

#include "analysis/logs/literal_prefilter.h"

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
  explicit LineLiteralHits(const LiteralPrefilter::Hits& hits) : hits_(hits) {}
  // Where the first occurrence starts in the message; npos: none.
  std::size_t first(LineLiteral name) const { return hits_.first[static_cast<std::size_t>(name)]; }
  bool has(LineLiteral name) const { return first(name) != std::string_view::npos; }

 private:
  LiteralPrefilter::Hits hits_;
};

LineLiteralHits scanLineLiterals(std::string_view message);

}  // namespace dsls::logs

// Large string values (a didOpen's text) taken out of a message body before it is parsed, so a
// document of tens of MB is held once: decoded in place in the body's own buffer, not grown
// char by char in the parser's token buffer while the body is still alive.
#pragma once

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

namespace dsls::protocol {

// String values shorter than this go through the parser as usual (tests lift smaller ones).
inline constexpr std::size_t kLiftedStringBytes = 64u << 10;

// A key of an object or an index of an array on the way from the root to a value.
using PathStep = std::variant<std::string, std::size_t>;

struct LiftedString {
  std::vector<PathStep> path;
  std::string value;  // decoded
};

struct LiftedBody {
  std::string envelope;               // the body with each lifted value replaced by ""
  std::vector<LiftedString> strings;  // in the order they appear in the body
};

enum class LiftOutcome {
  None,       // nothing lifted, `body` as it was: parse it as it is (which reports any error)
  Lifted,     // `out` holds the values and the envelope; `body` is consumed (its buffer holds the largest value)
  Malformed,  // the largest value is not a valid JSON string; `body` is consumed
};

// Lifts every string value of at least `minBytes` (encoded) out of `body`.
LiftOutcome liftLargeStrings(std::string& body, LiftedBody& out, std::size_t minBytes = kLiftedStringBytes);

}  // namespace dsls::protocol

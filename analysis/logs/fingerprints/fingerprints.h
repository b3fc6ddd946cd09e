// The catalogue of log fingerprints (line shapes that identify a failure or a
// fact about the run), matched together: a literal prefilter, then one RE2::Set
// pass, then capture groups only for the patterns that matched. The rows are in
// fingerprint_table.inc.
#pragma once

#include <array>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/logs/lines/literal_prefilter.h"

namespace re2 {
class RE2;
}

namespace dsls::logs {

enum class Fp : int {
#define DSLS_FINGERPRINT(name, literals, pattern) name,
#include "analysis/logs/fingerprints/fingerprint_table.inc"
#undef DSLS_FINGERPRINT
  Count
};

constexpr int kMaxGroups = 8;

// The names of one pattern's capture groups, in group order (resolved when the matcher is built).
struct GroupNames {
  std::vector<std::string> names;
};

struct FpMatch {
  Fp kind = Fp::Count;
  const GroupNames* names = nullptr;                  // owned by the matcher
  std::array<std::string_view, kMaxGroups> values{};  // null data() = the group did not take part

  // The text of the named group; a view with null data() when it did not take part.
  // Throws std::logic_error for a name the pattern does not have.
  std::string_view group(std::string_view name) const;
  // The first named group that took part, handy for alternations.
  std::string_view firstOf(std::initializer_list<std::string_view> names) const;
};

class FingerprintMatcher {
 public:
  FingerprintMatcher();
  ~FingerprintMatcher();
  FingerprintMatcher(const FingerprintMatcher&) = delete;
  FingerprintMatcher& operator=(const FingerprintMatcher&) = delete;

  // Appends every fingerprint found in `message` to `out` (cleared first), in table order.
  // Returns false quickly when the prefilter rejects the line. Matches refer to the matcher
  // and to `message`: they are valid while both are.
  bool match(std::string_view message, std::vector<FpMatch>& out) const;
  // The prefilter alone: false means match() finds nothing.
  bool mayMatch(std::string_view message) const;
  // match() for a message that passed mayMatch().
  bool matchPrefiltered(std::string_view message, std::vector<FpMatch>& out) const;

  // The literals of the table, one of which is in every match (the prefilter's).
  std::vector<std::string> literals() const;

  // The process-wide instance (construction compiles the patterns once).
  static const FingerprintMatcher& shared();

  std::size_t patternCount() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The matches of recent messages that passed the prefilter, so that a line printed again
// and again (the same timeout on every rank, thousands of times) is matched once and then
// looked up. The result is the matcher's own, for any input. One per analysis, not shared
// between threads; bounded: kSlots messages of at most kMaxBytes each.
class MatchMemo {
 public:
  explicit MatchMemo(const FingerprintMatcher& matcher) : matcher_(matcher) {}
  // As FingerprintMatcher::match; the matches refer to `message`.
  bool match(std::string_view message, std::vector<FpMatch>& out);
  // As match(), for a message already known to hold one of the matcher's literals.
  bool matchHoldingLiteral(std::string_view message, std::vector<FpMatch>& out);

  static constexpr std::size_t kSlots = 64;
  static constexpr std::size_t kMaxBytes = 2048;

 private:
  struct Slot {
    bool used = false;
    std::size_t hash = 0;
    std::string text;
    std::vector<FpMatch> matches;  // views into `text`
  };
  const FingerprintMatcher& matcher_;
  std::array<Slot, kSlots> slots_{};
};

}  // namespace dsls::logs

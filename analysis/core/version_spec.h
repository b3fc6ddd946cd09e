// PEP 440 versions and version specifiers (">=0.18.6,<0.19.0", "~=0.14.2", "==0.14.*"), as pip
// reads them in requirements and pyproject files. Pure: text in, answers out.
#pragma once

#include "analysis/core/version.h"

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::analysis {

// A PEP 440 version: release numbers, pre-release (a, b, rc), post and dev parts; a local
// label ("+cu118") is kept as text and ignored when comparing.
struct PepVersion {
  std::vector<long> release;   // "0.14.2" -> {0, 14, 2}
  int preKind = -1;            // 0 = a, 1 = b, 2 = rc; -1 = none
  long pre = 0;
  std::optional<long> post, dev;
  std::string text;            // as written, trimmed (=== compares it)

  static std::optional<PepVersion> parse(std::string_view text);
  bool isPrerelease() const { return preKind >= 0 || dev.has_value(); }
  // The same release without its pre, post and dev parts.
  PepVersion base() const;
  // major.minor.patch, the analysis's release number.
  Version toVersion() const;
  std::strong_ordering operator<=>(const PepVersion& other) const;
  bool operator==(const PepVersion& other) const { return (*this <=> other) == 0; }
};

// One clause: an operator and a version ("!=0.19.1", "==0.14.*").
struct VersionClause {
  enum class Op { Equal, NotEqual, AtLeast, AtMost, Above, Below, Compatible, Identical };
  Op op = Op::Equal;
  PepVersion version;
  bool wildcard = false;  // "==0.14.*": version holds the prefix 0.14
  std::string text;       // normalised, without spaces: "==0.14.*"
  bool admits(const PepVersion& candidate) const;
};

// Comma-joined clauses, all of which must hold. No clause admits every release.
class VersionSpec {
 public:
  // nullopt for a malformed specifier; `error`, if given, then says which part.
  static std::optional<VersionSpec> parse(std::string_view text, std::string* error = nullptr);
  // Whether pip would take `candidate`: every clause holds, and a pre-release only when a
  // clause names one.
  bool admits(const PepVersion& candidate) const;
  bool allowsPrereleases() const;
  const std::vector<VersionClause>& clauses() const { return clauses_; }
  // The clauses joined with commas, without spaces: ">=0.18.6,<0.19.0"; "" for none.
  std::string text() const;
  // The release it pins when it is one `==` or `===` clause without a wildcard.
  std::optional<PepVersion> exactPin() const;

 private:
  std::vector<VersionClause> clauses_;
};

}  // namespace dsls::analysis

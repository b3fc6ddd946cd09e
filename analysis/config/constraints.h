// The value constraints DeepSpeed enforces (or values it accepts that are surely wrong), one
// row each in constraints.inc: the key, the condition it applies under, the releases it holds
// in, the exception DeepSpeed raises, and the rule that reports it. The rows are data; the
// rules in analysis/config/rules/ evaluate them (value_constraints.cpp) and the hover and the
// JSON schema describe them.
#pragma once

#include "analysis/core/finding.h"
#include "analysis/core/version.h"
#include "analysis/facts/rule_id.h"

#include <span>
#include <string_view>
#include <vector>

namespace dsls::config {

enum class ConstraintCheck {
  AtLeast,      // value >= bound
  Above,        // value > bound
  AtMost,       // value <= bound
  OneOf,        // a string among the '|'-separated bound, any case
  Required,     // the key must be present (in its section, when the section is)
  ItemsInteger, // a list (not a scalar) whose items are whole numbers
  ItemsAbove,   // a list whose items are > bound
  AtMostKey,    // value <= the value at the dotted path `bound`
  ItemsAtMostKey,  // every item <= the value at the dotted path `bound`
  MultipleOfKey,   // value is a whole multiple of the value at the dotted path `bound`
};

struct ValueConstraint {
  RuleId rule;
  std::string_view path;     // dotted key path
  ConstraintCheck check;
  std::string_view bound;    // number, '|' list, or key path, by `check`
  std::string_view when;     // clauses "path op literal" joined by " && "; "" = always
  std::string_view whenText; // the condition in words ("" = always)
  std::string_view since;    // first release it holds in; "" = every modelled release
  std::string_view until;    // first release it no longer holds in; "" = still holds
  analysis::Severity severity;  // Error: DeepSpeed refuses it; Warning: accepted but surely wrong
  std::string_view deepspeed;   // what DeepSpeed raises (Error) or what goes wrong (Warning)
  std::string_view source;      // where in DeepSpeed's source the check is
};

std::span<const ValueConstraint> valueConstraints();
// The rows on `path`, table order.
std::vector<const ValueConstraint*> constraintsOn(std::string_view path);

// Whether the row holds in release `v` (since <= v < until).
bool holdsIn(const ValueConstraint& c, const analysis::Version& v);
// "from 0.19.3", "before 0.14.1", "from 0.15.0, before 0.18.5", "in every release".
std::string releaseRange(const ValueConstraint& c);
// "at least 0", "greater than 0", "one of fp16, bf16, fp32", ...
std::string requirementText(const ValueConstraint& c);

// The first release the constraints model (the oldest tag the catalog is checked against).
inline constexpr std::string_view kFirstModelledRelease = "0.8.0";

}  // namespace dsls::config

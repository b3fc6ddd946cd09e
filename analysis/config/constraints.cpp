// The constraint table (constraints.inc) and the words that describe a row.
#include "analysis/config/constraints.h"

#include <fmt/format.h>

#include <optional>
#include <string>

namespace dsls::config {

namespace {

constexpr ValueConstraint kConstraints[] = {
#define DSLS_CONSTRAINT(rule, path, check, bound, when, whenText, since, until, severity, deepspeed, source) \
  {RuleId::rule, path, ConstraintCheck::check, bound, when, whenText, since, until, analysis::Severity::severity,     \
   deepspeed, source},
#include "analysis/config/constraints.inc"
};

std::string joinAlternatives(std::string_view bound) {
  std::string out;
  std::size_t start = 0;
  while (start <= bound.size()) {
    std::size_t bar = bound.find('|', start);
    std::string_view item = bound.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start);
    bool last = bar == std::string_view::npos;
    if (!out.empty()) out += last ? " or " : ", ";
    out += fmt::format("\"{}\"", item);
    if (last) break;
    start = bar + 1;
  }
  return out;
}

}  // namespace

std::span<const ValueConstraint> valueConstraints() { return kConstraints; }

std::vector<const ValueConstraint*> constraintsOn(std::string_view path) {
  std::vector<const ValueConstraint*> out;
  for (const auto& c : kConstraints)
    if (c.path == path) out.push_back(&c);
  return out;
}

bool holdsIn(const ValueConstraint& c, const analysis::Version& v) {
  if (auto since = analysis::Version::parse(c.since); since && v < *since) return false;
  if (auto until = analysis::Version::parse(c.until); until && !(v < *until)) return false;
  return true;
}

std::string releaseRange(const ValueConstraint& c) {
  if (c.since.empty() && c.until.empty()) return fmt::format("in every release from {}", kFirstModelledRelease);
  if (c.until.empty()) return fmt::format("from {}", c.since);
  if (c.since.empty()) return fmt::format("before {}", c.until);
  return fmt::format("from {}, before {}", c.since, c.until);
}

std::string requirementText(const ValueConstraint& c) {
  switch (c.check) {
    case ConstraintCheck::AtLeast: return fmt::format("at least {}", c.bound);
    case ConstraintCheck::Above: return fmt::format("greater than {}", c.bound);
    case ConstraintCheck::AtMost: return fmt::format("at most {}", c.bound);
    case ConstraintCheck::OneOf: return fmt::format("one of {} (any case)", joinAlternatives(c.bound));
    case ConstraintCheck::Required: return "set";
    case ConstraintCheck::ItemsInteger: return "a list of whole numbers";
    case ConstraintCheck::ItemsAbove: return fmt::format("a list of numbers greater than {}", c.bound);
    case ConstraintCheck::AtMostKey: return fmt::format("at most {}", c.bound);
    case ConstraintCheck::ItemsAtMostKey: return fmt::format("a list of numbers each at most {}", c.bound);
    case ConstraintCheck::MultipleOfKey: return fmt::format("a multiple of {}", c.bound);
  }
  return "";
}

}  // namespace dsls::config

// Evaluates the rows of constraints.inc for one rule: the condition, the release range and the
// check, and reports a finding that quotes what DeepSpeed raises and from which release.
#include "analysis/config/rules/value_constraints.h"

#include "analysis/config/constraints.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

namespace dsls::config {

using namespace rules;

namespace {

// A value as the condition and the checks see it: a written member or the catalog default.
struct Scalar {
  enum class Kind { Unknown, Bool, Number, String } kind = Kind::Unknown;
  bool boolean = false;
  double number = 0;
  std::string string;
};

Scalar scalarOfNode(const json::Node& n) {
  Scalar s;
  if (isAuto(n)) return s;
  if (n.kind == json::Kind::Bool) s.kind = Scalar::Kind::Bool, s.boolean = isTrue(n);
  else if (n.kind == json::Kind::Number) s.kind = Scalar::Kind::Number, s.number = n.number;
  else if (n.kind == json::Kind::String) s.kind = Scalar::Kind::String, s.string = n.string;
  return s;
}

// JSON literal text (a catalog default or a literal of a condition) as a Scalar.
Scalar scalarOfText(std::string_view text) {
  Scalar s;
  if (text == "true" || text == "false") {
    s.kind = Scalar::Kind::Bool, s.boolean = text == "true";
  } else if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    s.kind = Scalar::Kind::String, s.string = std::string(text.substr(1, text.size() - 2));
  } else if (!text.empty()) {
    std::string copy(text);
    char* end = nullptr;
    double d = std::strtod(copy.c_str(), &end);
    if (end && *end == '\0') s.kind = Scalar::Kind::Number, s.number = d;
  }
  return s;
}

// The member at `path`, under its canonical name or any alias the catalog knows.
const json::Member* findMember(const RuleContext& ctx, std::string_view path) {
  if (const json::Member* m = memberAt(ctx.model.root, path)) return m;
  const catalog::KeyInfo* key = catalog::findKey(path);
  if (!key) return nullptr;
  const json::Member* parent = memberAt(ctx.model.root, catalog::parentPath(path));
  const json::Node* object = catalog::parentPath(path).empty() ? ctx.model.root : objectOf(parent);
  if (!object) return nullptr;
  for (std::string_view alias : key->aliases)
    if (const json::Member* m = object->find(alias)) return m;
  if (const json::Member* m = object->find(catalog::leafName(key->path))) return m;
  return nullptr;
}

Scalar valueAt(const RuleContext& ctx, std::string_view path) {
  if (const json::Member* m = findMember(ctx, path)) return scalarOfNode(m->value);
  const catalog::KeyInfo* key = catalog::findKey(path);
  if (!key) return {};
  return scalarOfText(ctx.model.deepspeed ? catalog::defaultAt(*key, *ctx.model.deepspeed) : key->defaultValue);
}

bool equal(const Scalar& a, const Scalar& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Scalar::Kind::Bool: return a.boolean == b.boolean;
    case Scalar::Kind::Number: return a.number == b.number;
    case Scalar::Kind::String: return a.string == b.string;
    case Scalar::Kind::Unknown: return false;
  }
  return false;
}

// One clause "path op literal"; false when the value is unknown.
bool clauseHolds(const RuleContext& ctx, std::string_view clause) {
  for (std::string_view op : {" == ", " != ", " >= ", " < "}) {
    std::size_t at = clause.find(op);
    if (at == std::string_view::npos) continue;
    Scalar left = valueAt(ctx, clause.substr(0, at));
    Scalar right = scalarOfText(clause.substr(at + op.size()));
    if (left.kind == Scalar::Kind::Unknown) return false;
    if (op == " == ") return equal(left, right);
    if (op == " != ") return !equal(left, right);
    if (left.kind != Scalar::Kind::Number || right.kind != Scalar::Kind::Number) return false;
    return op == " >= " ? left.number >= right.number : left.number < right.number;
  }
  return false;
}

bool conditionHolds(const RuleContext& ctx, std::string_view when) {
  while (!when.empty()) {
    std::size_t and_ = when.find(" && ");
    if (!clauseHolds(ctx, when.substr(0, and_))) return false;
    if (and_ == std::string_view::npos) break;
    when.remove_prefix(and_ + 4);
  }
  return true;
}

// Rows of the target release; with the release unknown, the rows of the newest one.
bool appliesToTarget(const ValueConstraint& c, const RuleContext& ctx) {
  if (ctx.model.deepspeed) return holdsIn(c, *ctx.model.deepspeed);
  return c.until.empty();
}

bool numberViolates(ConstraintCheck check, double value, double bound) {
  switch (check) {
    case ConstraintCheck::AtLeast: return value < bound;
    case ConstraintCheck::Above:
    case ConstraintCheck::ItemsAbove: return value <= bound;
    case ConstraintCheck::AtMost:
    case ConstraintCheck::AtMostKey:
    case ConstraintCheck::ItemsAtMostKey: return value > bound;
    default: return false;
  }
}

std::optional<double> boundOf(const RuleContext& ctx, const ValueConstraint& c) {
  if (c.check == ConstraintCheck::AtMostKey || c.check == ConstraintCheck::ItemsAtMostKey ||
      c.check == ConstraintCheck::MultipleOfKey) {
    Scalar other = valueAt(ctx, c.bound);
    if (other.kind != Scalar::Kind::Number) return std::nullopt;
    return other.number;
  }
  Scalar b = scalarOfText(c.bound);
  if (b.kind != Scalar::Kind::Number) return std::nullopt;
  return b.number;
}

bool oneOf(std::string_view bound, std::string_view value) {
  std::string v = lower(value);
  std::size_t start = 0;
  while (true) {
    std::size_t bar = bound.find('|', start);
    if (lower(bound.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start)) == v)
      return true;
    if (bar == std::string_view::npos) return false;
    start = bar + 1;
  }
}

// The offending value or list item, or nullptr when the value meets the row.
const json::Node* violation(const RuleContext& ctx, const ValueConstraint& c, const json::Node& value) {
  if (isAuto(value)) return nullptr;
  if (c.check == ConstraintCheck::OneOf)
    return value.kind == json::Kind::String && !oneOf(c.bound, value.string) ? &value : nullptr;
  bool items = c.check == ConstraintCheck::ItemsInteger || c.check == ConstraintCheck::ItemsAbove ||
               c.check == ConstraintCheck::ItemsAtMostKey;
  if (items) {
    if (value.kind != json::Kind::Array)  // DeepSpeed checks for a list before its items
      return c.check == ConstraintCheck::ItemsInteger && value.kind != json::Kind::Null ? &value : nullptr;
    std::optional<double> bound = boundOf(ctx, c);
    for (const json::Node& item : value.elements()) {
      if (c.check == ConstraintCheck::ItemsInteger) {
        if (item.kind != json::Kind::Number || !item.isInteger) return &item;
      } else if (item.kind == json::Kind::Number && bound && numberViolates(c.check, item.number, *bound)) {
        return &item;
      }
    }
    return nullptr;
  }
  auto n = numberOf(value);
  std::optional<double> bound = boundOf(ctx, c);
  if (!n || !bound) return nullptr;
  if (c.check == ConstraintCheck::MultipleOfKey)
    return *bound > 0 && std::fmod(*n, *bound) != 0 ? &value : nullptr;
  return numberViolates(c.check, *n, *bound) ? &value : nullptr;
}

// "DeepSpeed 0.19.4 raises" / "DeepSpeed 0.19.3 and later raise" / "DeepSpeed before 0.14.1 raises":
// the target release when it is known, else the releases the row holds in.
std::string subject(const RuleContext& ctx, const ValueConstraint& c, std::string_view verb) {
  bool always = c.since.empty() && c.until.empty();
  if (ctx.model.deepspeed) return fmt::format("DeepSpeed {} {}s", ctx.model.deepspeed->str(), verb);
  if (always) return fmt::format("DeepSpeed {}s", verb);
  if (c.until.empty()) return fmt::format("DeepSpeed {} and later {}", c.since, verb);
  return fmt::format("DeepSpeed {} {}s", releaseRange(c), verb);
}

std::string consequence(const RuleContext& ctx, const ValueConstraint& c) {
  bool always = c.since.empty() && c.until.empty();
  if (c.severity == Severity::Warning && ctx.model.deepspeed && !always)
    return fmt::format("DeepSpeed {} accepts it ({}), but {}", ctx.model.deepspeed->str(), releaseRange(c), c.deepspeed);
  if (c.severity == Severity::Warning) return fmt::format("{} it, but {}", subject(ctx, c, "accept"), c.deepspeed);
  if (!ctx.model.deepspeed || always)
    return fmt::format("{} \"{}\"", subject(ctx, c, "raise"), c.deepspeed);
  return fmt::format("DeepSpeed {} raises \"{}\" (checked {})", ctx.model.deepspeed->str(), c.deepspeed,
                     releaseRange(c));
}

// The alternative of a OneOf row closest to `value` (at most two edits), for a fix.
std::optional<std::string> closestAlternative(std::string_view bound, std::string_view value) {
  std::optional<std::string> best;
  std::size_t bestDistance = 3, bestPrefix = 0;
  std::string v = lower(value);
  std::size_t start = 0;
  while (start <= bound.size()) {
    std::size_t bar = bound.find('|', start);
    std::string a(bound.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start));
    std::size_t d = editDistance(v, a), prefix = 0;
    while (prefix < v.size() && prefix < a.size() && v[prefix] == a[prefix]) ++prefix;
    if (d < bestDistance || (d == bestDistance && best && prefix > bestPrefix)) bestDistance = d, bestPrefix = prefix, best = a;
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  return best;
}

std::string when(const ValueConstraint& c) { return c.whenText.empty() ? std::string() : fmt::format(" {}", c.whenText); }

void reportMissing(const RuleContext& ctx, const ValueConstraint& c, std::vector<Finding>& out) {
  if (findMember(ctx, c.path)) return;
  // Reported on the nearest enclosing key that is written.
  std::string_view at = catalog::parentPath(c.path);
  const json::Member* anchor = nullptr;
  while (!at.empty() && !(anchor = memberAt(ctx.model.root, at))) at = catalog::parentPath(at);
  if (!anchor) return;
  out.push_back(makeFinding(c.rule, c.severity,
                            fmt::format("{} is required{}: {}.", c.path, when(c), consequence(ctx, c)),
                            anchor->keyRange));
}

void reportViolation(const RuleContext& ctx, const ValueConstraint& c, const json::Member& member,
                     std::vector<Finding>& out) {
  const json::Node* bad = violation(ctx, c, member.value);
  if (!bad) return;
  std::string verb = c.severity == Severity::Error ? "must be" : "should be";
  Finding f = makeFinding(c.rule, c.severity,
                          fmt::format("{} {} {}{}, not {}: {}.", c.path, verb, requirementText(c), when(c),
                                      sourceOf(ctx.text, *bad), consequence(ctx, c)),
                          bad->range);
  bool exactBound = (c.check == ConstraintCheck::AtLeast || c.check == ConstraintCheck::AtMost) && bad == &member.value;
  if (exactBound)
    f.fixes.push_back({fmt::format("Change to {}", c.bound), {replaceValue(member, std::string(c.bound))}, false, false});
  if (c.check == ConstraintCheck::OneOf)
    if (auto best = closestAlternative(c.bound, bad->string))
      f.fixes.push_back({fmt::format("Change to \"{}\"", *best), {replaceValue(member, quote(*best))}, true, false});
  out.push_back(std::move(f));
}

}  // namespace

void checkValueConstraints(RuleId rule, const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  for (const ValueConstraint& c : valueConstraints()) {
    if (c.rule != rule || !appliesToTarget(c, ctx)) continue;
    if (const catalog::KeyInfo* key = catalog::findKey(c.path);
        key && ctx.model.deepspeed && !catalog::availableIn(*key, *ctx.model.deepspeed))
      continue;
    if (!conditionHolds(ctx, c.when)) continue;
    if (c.check == ConstraintCheck::Required) {
      reportMissing(ctx, c, out);
    } else if (const json::Member* m = findMember(ctx, c.path)) {
      reportViolation(ctx, c, *m, out);
    }
  }
}

bool hasOneOfConstraint(std::string_view path) {
  for (const ValueConstraint* c : constraintsOn(path))
    if (c->check == ConstraintCheck::OneOf) return true;
  return false;
}

}  // namespace dsls::config

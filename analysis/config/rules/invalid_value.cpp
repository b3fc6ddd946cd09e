// invalid-value: a value of the wrong JSON type, outside the allowed set, or out of
// range for a known key (the ranges: the rows of analysis/config/constraints.inc). Strict sections fail validation at start-up; lenient ones
// keep the value as written, which fails later or silently means something else
// (a non-empty string such as "false" is true in Python).
#include "analysis/config/rules/rule_support.h"
#include "analysis/config/rules/value_constraints.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace dsls::config {

using namespace rules;

namespace {

// Lenient keys whose bad values DeepSpeed rejects with an exception when it reads them.
bool raisesOnUnknownValue(std::string_view path) {
  return path == "checkpoint.tag_validation" || path == "torch_autocast.dtype";
}

// The allowed string value closest to `value` (case-insensitive, at most two edits), as JSON text.
std::optional<std::string_view> closestAllowed(const catalog::KeyInfo& key, std::string_view value) {
  std::optional<std::string_view> best;
  std::size_t bestDistance = 3, bestPrefix = 0;
  std::string v = rules::lower(value);
  for (std::string_view allowed : key.allowed) {
    if (allowed.size() < 2 || allowed.front() != '"') continue;
    std::string a = rules::lower(allowed.substr(1, allowed.size() - 2));
    std::size_t d = rules::editDistance(v, a);
    std::size_t prefix = 0;
    while (prefix < v.size() && prefix < a.size() && v[prefix] == a[prefix]) ++prefix;
    // Ties go to the value sharing the longer start ("bfp16" -> "bf16", not "fp16").
    if (d < bestDistance || (d == bestDistance && best && prefix > bestPrefix))
      bestDistance = d, bestPrefix = prefix, best = allowed;
  }
  return best;
}

std::string allowedList(const catalog::KeyInfo& key) {
  std::string s;
  for (std::size_t i = 0; i < key.allowed.size(); ++i) {
    if (i) s += i + 1 == key.allowed.size() ? " or " : ", ";
    s += key.allowed[i];
  }
  return s;
}

bool inAllowed(const catalog::KeyInfo& key, const json::Node& v, std::string_view text) {
  for (std::string_view allowed : key.allowed) {
    if (v.kind == json::Kind::String && allowed.size() >= 2 && allowed.front() == '"') {
      std::string_view inner = allowed.substr(1, allowed.size() - 2);
      if (key.caseInsensitive ? rules::lower(inner) == rules::lower(v.string) : inner == v.string) return true;
    } else if (v.kind == json::Kind::Number) {
      if (auto n = numberOf(v); n && allowed == fmt::format("{}", *n)) return true;
    } else if (v.raw(text) == allowed) {
      return true;
    }
  }
  return false;
}

std::string typeWords(unsigned types) {
  std::vector<std::string> words;
  if (types & catalog::Bool) words.push_back("true or false");
  if (types & catalog::Number) words.push_back("a number");
  else if (types & catalog::Integer) words.push_back("a whole number");
  if (types & catalog::String) words.push_back("a string");
  if (types & catalog::Object) words.push_back("an object");
  if (types & catalog::Array) words.push_back("a list");
  if (types & catalog::Null) words.push_back("null");
  std::string s;
  for (std::size_t i = 0; i < words.size(); ++i) s += (i ? (i + 1 == words.size() ? " or " : ", ") : "") + words[i];
  return s;
}

bool numericText(std::string_view s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::string copy(s);
  std::strtod(copy.c_str(), &end);
  return end && *end == '\0';
}

struct Verdict {
  Severity severity;
  std::string why;
};

// The consequence of a type mismatch in each regime; nullopt when there is nothing worth saying.
std::optional<Verdict> typeMismatch(const json::Node& v, unsigned types, Regime regime) {
  bool strict = regime != Regime::Lenient;
  bool wantsNumber = types & (catalog::Number | catalog::Integer);
  bool wantsBool = types & catalog::Bool;
  switch (v.kind) {
    case json::Kind::Null:
      if (!strict) return std::nullopt;  // lenient readers treat null like an absent key
      return Verdict{Severity::Warning, "DeepSpeed's validation may reject null here"};
    case json::Kind::String: {
      std::string l = rules::lower(v.string);
      if (wantsNumber && numericText(v.string))
        return strict ? Verdict{Severity::Warning, "a quoted number: DeepSpeed's validation may convert it, but write "
                                                   "it without quotes"}
                      : Verdict{Severity::Error, "a quoted number: DeepSpeed keeps the string, and comparing it with "
                                                 "numbers fails at run time"};
      if (wantsBool && (l == "true" || l == "false"))
        return strict ? Verdict{Severity::Warning, "a quoted boolean: DeepSpeed's validation converts it, but write "
                                                   "true or false without quotes"}
                      : Verdict{Severity::Error, "a quoted boolean: DeepSpeed keeps the string, and any non-empty "
                                                 "string counts as true, \"false\" included"};
      return Verdict{Severity::Error, ""};
    }
    case json::Kind::Number:
      if (wantsBool && (v.number == 0 || v.number == 1))
        return Verdict{Severity::Warning, fmt::format("{} is read as {}; write true or false",
                                                      v.number == 1 ? "1" : "0", v.number == 1 ? "true" : "false")};
      if ((types & catalog::Integer) && !(types & catalog::Number) && std::isfinite(v.number) && !v.isInteger)
        return Verdict{strict ? Severity::Error : Severity::Warning, "it must be a whole number"};
      return Verdict{strict ? Severity::Error : Severity::Warning, ""};
    case json::Kind::Bool:
      // A lenient reader keeps the value, and Python counts a bool as the number 0 or 1.
      if (wantsNumber && !strict)
        return Verdict{Severity::Warning, fmt::format("DeepSpeed uses it as the number {}", v.boolean ? 1 : 0)};
      return Verdict{Severity::Error, ""};
    default:
      return Verdict{Severity::Error, ""};
  }
}

bool matchesType(const json::Node& v, unsigned types) {
  switch (v.kind) {
    case json::Kind::Null: return types & catalog::Null;
    case json::Kind::Bool: return types & catalog::Bool;
    case json::Kind::Number:
      return (types & catalog::Number) || ((types & catalog::Integer) && v.isInteger);
    case json::Kind::String: return types & catalog::String;
    case json::Kind::Array: return types & catalog::Array;
    case json::Kind::Object: return types & catalog::Object;
    case json::Kind::Invalid: return true;  // a syntax error, reported as such
  }
  return true;
}

std::string regimeNote(Regime regime, std::string_view sectionPath) {
  if (regime != Regime::Depends) return "";
  return fmt::format(" ({} is validated from DeepSpeed {}; older releases use the value as written)", sectionPath,
                     strictSinceOf(sectionPath));
}

void checkEnum(const RuleContext& ctx, const Visit& v, const catalog::KeyInfo& key, Regime regime,
               std::vector<Finding>& out) {
  if (key.allowed.empty() || key.openEnum || hasOneOfConstraint(key.path) || inAllowed(key, v.member.value, ctx.text))
    return;
  const json::Node& value = v.member.value;
  if (value.kind == json::Kind::Null && (key.types & catalog::Null)) return;
  Severity sev = regime != Regime::Lenient || raisesOnUnknownValue(key.path) ? Severity::Error : Severity::Warning;
  std::string consequence = regime != Regime::Lenient ? "DeepSpeed's validation rejects it"
                            : raisesOnUnknownValue(key.path) ? "DeepSpeed raises an error when it reads it"
                                                             : "DeepSpeed does not know this value";
  Finding f = makeFinding(RuleId::InvalidValue, sev,
                          fmt::format("{} must be {}{}, not {}: {}{}.", key.path, allowedList(key),
                                      key.caseInsensitive ? " (any case)" : "", sourceOf(ctx.text, value),
                                      consequence, regimeNote(regime, v.parentPath)),
                          value.range);
  if (value.kind == json::Kind::String) {
    if (auto best = closestAllowed(key, value.string))
      f.fixes.push_back({fmt::format("Change to {}", *best), {replaceValue(v.member, std::string(*best))}, true, false});
  }
  out.push_back(std::move(f));
}

}  // namespace

void checkInvalidValues(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  bool tuning = autotuningEnabled(*ctx.model.root);
  forEachMember(*ctx.model.root, [&](const Visit& v) {
    const catalog::KeyInfo* key = catalog::findKey(v.path);
    if (!key) return false;
    if (ctx.model.deepspeed && !catalog::availableIn(*key, *ctx.model.deepspeed)) return false;
    const json::Node& value = v.member.value;
    if (value.kind == json::Kind::Invalid || isAuto(value)) return false;
    // With the autotuner on, a list stands for the values to try.
    if (tuning && value.kind == json::Kind::Array && !(key->types & catalog::Array)) return false;
    Regime regime = regimeOf(v.parentPath, ctx.model.deepspeed);

    if (key->types != 0 && !matchesType(value, key->types)) {
      if (auto verdict = typeMismatch(value, key->types, regime)) {
        std::string msg = fmt::format("{} expects {}, not {}", key->path, typeWords(key->types),
                                      value.kind == json::Kind::String ? quote(value.string)
                                                                       : std::string(sourceOf(ctx.text, value)));
        if (!verdict->why.empty()) msg += ": " + verdict->why;
        msg += regimeNote(regime, v.parentPath) + ".";
        Finding f = makeFinding(RuleId::InvalidValue, verdict->severity, std::move(msg), value.range);
        // Quoted numbers and booleans have an exact unquoted form.
        if (value.kind == json::Kind::String) {
          std::string l = rules::lower(value.string);
          if ((key->types & catalog::Bool) && (l == "true" || l == "false"))
            f.fixes.push_back({fmt::format("Write {} without quotes", l), {replaceValue(v.member, l)}, true, false});
          else if ((key->types & (catalog::Number | catalog::Integer)) && numericText(value.string))
            f.fixes.push_back({fmt::format("Write {} without quotes", value.string),
                               {replaceValue(v.member, std::string(value.string))}, true, false});
        }
        out.push_back(std::move(f));
      }
      return false;
    }
    checkEnum(ctx, v, *key, regime, out);
    return value.kind == json::Kind::Object;
  });
  checkValueConstraints(RuleId::InvalidValue, ctx, out);
}

}  // namespace dsls::config

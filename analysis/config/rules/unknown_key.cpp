// unknown-key: a key DeepSpeed does not define where it is written. In strict
// sections (pydantic extra="forbid") that is a ValidationError at start-up; in
// lenient ones the key is silently ignored. Offers the closest known names, and
// says where a key belongs when it exists under another section.
#include "analysis/config/rules/rule_support.h"

#include <fmt/format.h>

namespace dsls::config {

using namespace rules;

namespace {

std::string joinPath(std::string_view parent, std::string_view key) {
  return parent.empty() ? std::string(key) : std::string(parent) + "." + std::string(key);
}

// fp16 options inside bf16 have their own rule (fp16-option-in-bf16).
bool reportedElsewhere(std::string_view sectionPath, std::string_view key) {
  if (sectionPath != "bf16" && sectionPath != "bfloat16") return false;
  return catalog::findKey("fp16." + std::string(key)) != nullptr;
}

bool availableHere(const RuleContext& ctx, const catalog::KeyInfo& key) {
  return !ctx.model.deepspeed || catalog::availableIn(key, *ctx.model.deepspeed);
}

// Known keys of the same name under other sections, when there are few enough to name.
// True when a value of this JSON kind could be the key's value ("throughput": 3.1 is a metric,
// not the timers.throughput object). Invalid (a parse error) is given the benefit of the doubt.
bool kindFits(const json::Node& value, unsigned types) {
  switch (value.kind) {
    case json::Kind::Null: return types & catalog::Null;
    case json::Kind::Bool: return types & catalog::Bool;
    case json::Kind::Number: return (types & catalog::Number) || (value.isInteger && (types & catalog::Integer));
    case json::Kind::String: return (types & catalog::String) || value.string == "auto";
    case json::Kind::Array: return types & catalog::Array;
    case json::Kind::Object: return types & catalog::Object;
    case json::Kind::Invalid: return true;
  }
  return true;
}

// Sections where a key of this name is defined and whose type takes the value written.
std::vector<const catalog::KeyInfo*> otherHomes(std::string_view sectionPath, std::string_view key,
                                                const json::Node& value) {
  std::vector<const catalog::KeyInfo*> homes;
  const catalog::SectionInfo* here = catalog::findSection(sectionPath);
  std::string_view canonicalHere = here && !here->aliasOf.empty() ? here->aliasOf : sectionPath;
  for (const catalog::KeyInfo* k : catalog::keysNamed(key)) {
    if (k->path.find('*') != std::string_view::npos) continue;
    if (catalog::parentPath(k->path) == canonicalHere) continue;
    if (!kindFits(value, k->types)) continue;
    homes.push_back(k);
  }
  if (homes.size() > 3) homes.clear();  // a generic name such as "enabled" says nothing about intent
  return homes;
}

// The object in the document at a dotted path, or nullptr.
const json::Node* objectAt(const json::Node& root, std::string_view path) {
  if (path.empty()) return &root;
  return objectOf(memberAt(&root, path));
}

std::string quotedList(const std::vector<std::string_view>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) s += i + 1 == names.size() ? " or " : ", ";
    s.append("\"").append(names[i]).append("\"");
  }
  return s;
}

// Suggestions cost an edit-distance pass over a section's keys; a generated file with
// thousands of unknown keys gets them for the first ones only.
constexpr std::size_t kSuggestionBudget = 200;

void report(const RuleContext& ctx, const json::Node& object, const std::string& sectionPath, const json::Member& m,
            std::size_t& budget, std::vector<Finding>& out) {
  Regime regime = regimeOf(sectionPath, ctx.model.deepspeed);
  // A leading underscore is a common way to keep a note or a disabled key in JSON; lenient
  // sections ignore it anyway, so it is only worth a word where DeepSpeed rejects it.
  if (regime == Regime::Lenient && m.key.starts_with("_")) return;

  std::string what = sectionPath.empty() ? "is not a DeepSpeed key"
                                         : fmt::format("is not a key of {}", sectionPath);
  std::string message = fmt::format("\"{}\" {}", m.key, what);
  Severity severity = defaultSeverity(RuleId::UnknownKey);
  switch (regime) {
    case Regime::Strict:
      message += ctx.model.deepspeed
                     ? fmt::format(": {} rejects unknown keys there (ValidationError at start-up)", targetLabel(ctx))
                     : ": DeepSpeed rejects unknown keys there (ValidationError at start-up)";
      break;
    case Regime::Depends:
      message += fmt::format(": DeepSpeed {} and later reject unknown keys in {} (ValidationError); older releases "
                             "ignore them",
                             strictSinceOf(sectionPath), sectionPath);
      break;
    case Regime::Lenient:
      severity = Severity::Warning;  // ignored, not refused
      message += ": DeepSpeed ignores it";
      break;
  }

  Finding f = makeFinding(RuleId::UnknownKey, severity, "", m.keyRange);
  if (regime == Regime::Lenient) f.tags.push_back(analysis::Tag::Unnecessary);

  // Where the key belongs, when it is a known key of another section.
  bool suggest = budget > 0;
  if (suggest) --budget;
  std::vector<const catalog::KeyInfo*> homes;
  if (suggest) homes = otherHomes(sectionPath, m.key, m.value);
  const json::Node& root = *ctx.model.root;
  if (!homes.empty()) {
    std::vector<std::string_view> sections;
    for (const auto* k : homes) sections.push_back(catalog::parentPath(k->path));
    std::string list;
    for (std::size_t i = 0; i < sections.size(); ++i)
      list += (i ? (i + 1 == sections.size() ? " or " : ", ") : "") + sectionLabel(sections[i]);
    message += fmt::format(". It belongs in {}", list);
    if (homes.size() == 1) {
      std::string_view target = catalog::parentPath(homes.front()->path);
      const json::Node* to = objectAt(root, target);
      if (const json::Member* targetMember = target.empty() ? nullptr : memberAt(&root, target))
        f.related.push_back({"", targetMember->keyRange, fmt::format("the {} section", target)});
      if (to && to != &object && !to->find(m.key) && to->closed) {
        analysis::Fix fix{fmt::format("Move \"{}\" into {}", m.key, sectionLabel(target)),
                          moveMember(ctx.text, object, m, *to), true, false};
        f.fixes.push_back(std::move(fix));
      }
    }
  } else if (suggest) {
    std::vector<std::string_view> names;
    for (std::string_view s : catalog::suggest(sectionPath, m.key)) {
      if (object.find(s)) continue;  // renaming onto a present key would duplicate it
      const catalog::KeyInfo* k = catalog::findKey(joinPath(sectionPath, s));
      if (k && !availableHere(ctx, *k)) continue;
      names.push_back(s);
      if (names.size() == 2) break;
    }
    if (!names.empty()) {
      message += ". Did you mean " + quotedList(names) + "?";
      for (std::size_t i = 0; i < names.size(); ++i)
        f.fixes.push_back({fmt::format("Rename to \"{}\"", names[i]), {renameKey(m, names[i])}, i == 0, false});
    }
  }
  if (!message.ends_with("?")) message += ".";
  f.message = std::move(message);
  out.push_back(std::move(f));
}

void judge(const RuleContext& ctx, const json::Node& object, const std::string& path, std::size_t& budget,
           std::vector<Finding>& out, int depth) {
  if (depth > 32) return;
  const catalog::SectionInfo* section = catalog::findSection(path);
  if (!section) return;
  for (const json::Member& m : object.members()) {
    std::string child = joinPath(path, m.key);
    const catalog::KeyInfo* key = catalog::findKey(child);
    if (key || section->openKeys) {
      // Sections the target release does not have are reported by key-too-new / key-removed.
      if (key && !availableHere(ctx, *key)) continue;
      if (m.value.kind == json::Kind::Object && catalog::findSection(child)) judge(ctx, m.value, child, budget, out, depth + 1);
      continue;
    }
    if (reportedElsewhere(path, m.key)) continue;
    report(ctx, object, path, m, budget, out);
  }
}

}  // namespace

void checkUnknownKeys(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  std::size_t budget = kSuggestionBudget;
  judge(ctx, *ctx.model.root, "", budget, out, 0);
}

}  // namespace dsls::config

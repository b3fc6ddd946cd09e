// Completion in ds_configs: keys valid in the enclosing section (present ones left out),
// and values (enums, booleans, "auto" where the HF integration fills it).
#include "analysis/catalog/catalog.h"
#include "analysis/config/config_features.h"
#include "analysis/json/locate.h"
#include "analysis/json/path.h"

#include <fmt/format.h>

#include <set>

namespace dsls::config {

using analysis::CompletionInfo;

namespace {

std::string placeholderFor(const catalog::KeyInfo& k) {
  if (!k.defaultValue.empty()) return std::string(k.defaultValue);
  if (k.types & catalog::Object) return "{}";
  if (k.types & catalog::Array) return "[]";
  if (k.types & catalog::Bool) return "false";
  if (k.types & (catalog::Integer | catalog::Number)) return "0";
  return "\"\"";
}

std::string documentation(const catalog::KeyInfo& k) {
  std::string s(k.doc);
  if (!k.defaultValue.empty()) s += fmt::format("\n\nDefault: `{}`", k.defaultValue);
  if (!k.defaultNote.empty()) s += fmt::format(" ({})", k.defaultNote);
  return s;
}

void keyItems(const analysis::ConfigAnalysis& a, const json::Location& loc, std::size_t offset,
              std::vector<CompletionInfo>& out) {
  std::string section = json::joinPath(loc.enclosingObjectPath);
  std::set<std::string> present;
  for (const auto& m : loc.enclosingObject->members)
    if (!(loc.onKey && &m == loc.member)) present.insert(m.key);
  analysis::TextRange replace{offset, offset};
  if (loc.onKey && loc.member) replace = loc.member->keyRange;
  for (const catalog::KeyInfo* k : catalog::childrenOf(section)) {
    std::string name(catalog::leafName(k->path));
    if (present.count(name)) continue;
    bool isDeprecated = !k->deprecatedBy.empty();
    CompletionInfo item;
    item.kind = CompletionInfo::Kind::Key;
    item.label = name;
    item.detail = isDeprecated ? fmt::format("deprecated: use {}", k->deprecatedBy) : std::string(k->defaultNote);
    item.documentation = documentation(*k);
    item.insertText = loc.onKey ? "\"" + name + "\"" : fmt::format("\"{}\": {}", name, placeholderFor(*k));
    item.replace = replace;
    item.sortText = (isDeprecated ? "z" : "a") + name;
    item.deprecated = isDeprecated;
    out.push_back(std::move(item));
  }
  (void)a;
}

void valueItems(const json::Location& loc, std::vector<CompletionInfo>& out) {
  const catalog::KeyInfo* k = catalog::findKey(json::joinPath(loc.path));
  if (!k || !loc.member) return;
  analysis::TextRange replace = loc.member->value.range;
  if (replace.end <= replace.begin) replace = {loc.member->value.range.begin, loc.member->value.range.begin};
  std::vector<std::string> values;
  for (auto v : k->allowed) values.emplace_back(v);
  if (values.empty() && (k->types & catalog::Bool)) values = {"true", "false"};
  using F = catalog::AutoFill;
  if (k->autoFill == F::HfTrainer || k->autoFill == F::Accelerate || k->autoFill == F::HfAndAccelerate ||
      k->autoFill == F::DeepSpeedNative)
    values.push_back("\"auto\"");
  for (const auto& v : values) {
    CompletionInfo item;
    item.kind = CompletionInfo::Kind::Value;
    item.label = v;
    item.insertText = v;
    item.replace = replace;
    if (v == k->defaultValue) item.detail = "default";
    out.push_back(std::move(item));
  }
}

}  // namespace

std::vector<CompletionInfo> complete(const analysis::ConfigAnalysis& a, std::size_t offset, bool /*snippets*/) {
  std::vector<CompletionInfo> out;
  json::Location loc = json::locate(a.document(), offset);
  if (loc.member && !loc.onKey) {
    valueItems(loc, out);
    return out;
  }
  if (loc.enclosingObject) keyItems(a, loc, offset, out);
  return out;
}

}  // namespace dsls::config

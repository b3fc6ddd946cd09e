// Hover for ds_config keys and values: what the key does, its type and default (by version),
// the effective value and where it comes from, and the race explanation where it applies.
#include "analysis/catalog/catalog.h"
#include "analysis/config/config_features.h"
#include "analysis/config/constraints.h"
#include "analysis/config/rule.h"
#include "analysis/json/locate.h"
#include "analysis/json/path.h"

#include <fmt/format.h>

namespace dsls::config {

using analysis::HoverInfo;

namespace {

bool isRaceKey(const std::string& path) {
  return path == "zero_optimization.overlap_comm" || path == "zero_optimization.contiguous_gradients" ||
         path == "zero_optimization.stage" || path == "zero_optimization";
}

std::string typeNames(unsigned types) {
  std::string s;
  auto add = [&](unsigned bit, const char* name) {
    if (types & bit) s += (s.empty() ? "" : " | ") + std::string(name);
  };
  add(catalog::Bool, "boolean");
  add(catalog::Integer, "integer");
  add(catalog::Number, "number");
  add(catalog::String, "string");
  add(catalog::Object, "object");
  add(catalog::Array, "array");
  add(catalog::Null, "null");
  return s;
}

std::string autoNote(catalog::AutoFill fill) {
  switch (fill) {
    case catalog::AutoFill::HfTrainer: return "`\"auto\"` is filled by the HF Trainer at launch (not by Accelerate).";
    case catalog::AutoFill::Accelerate: return "`\"auto\"` is filled by Accelerate at launch (not by the HF Trainer).";
    case catalog::AutoFill::HfAndAccelerate: return "`\"auto\"` is filled by the HF Trainer and by Accelerate at launch.";
    case catalog::AutoFill::DeepSpeedNative: return "`\"auto\"` is a value DeepSpeed itself understands here.";
    case catalog::AutoFill::None: return "Nobody fills `\"auto\"` here.";
  }
  return "";
}

std::string keyDoc(const catalog::KeyInfo& k, const ConfigModel& m) {
  std::string s = fmt::format("**`{}`** ({})\n\n{}\n\n", k.path, typeNames(k.types), k.doc);
  if (!k.allowed.empty()) {
    std::string values;
    for (auto v : k.allowed) values += (values.empty() ? "" : ", ") + fmt::format("`{}`", v);
    s += "Values: " + values + (k.openEnum ? " (others may be accepted)" : "") + "\n\n";
  }
  if (m.deepspeed && !k.defaultChanges.empty()) {
    s += fmt::format("Default in DeepSpeed {}: `{}`", m.deepspeed->str(), catalog::defaultAt(k, *m.deepspeed));
  } else if (!k.defaultValue.empty()) {
    s += fmt::format("Default: `{}`", k.defaultValue);
  } else {
    s += "Default: none";
  }
  if (!k.defaultNote.empty()) s += fmt::format(" ({})", k.defaultNote);
  s += "\n\n";
  if (!k.defaultChanges.empty()) {
    std::string changes;
    for (const auto& c : k.defaultChanges)
      changes += fmt::format("{}`{}` {}", changes.empty() ? "" : "; ", c.value,
                             c.since.empty() ? "originally" : "from " + std::string(c.since));
    s += "Default by release: " + changes + ".\n\n";
  }
  if (!k.since.empty() || !k.until.empty() || !k.removedAfter.empty()) {
    s += "Releases: ";
    if (!k.since.empty()) s += fmt::format("added in {}", k.since);
    if (!k.until.empty()) s += fmt::format("{}removed in {}", k.since.empty() ? "" : ", ", k.until);
    if (!k.removedAfter.empty()) s += fmt::format("{}last seen in {}", k.since.empty() ? "" : ", ", k.removedAfter);
    s += ".";
    if (!k.versionNote.empty()) s += fmt::format(" {}", k.versionNote);
    s += "\n\n";
  }
  if (!k.deprecatedBy.empty())
    s += fmt::format("Deprecated{}: use `{}`.\n\n",
                     k.deprecatedSince.empty() ? "" : " since " + std::string(k.deprecatedSince), k.deprecatedBy);
  if (k.autoFill != catalog::AutoFill::None) s += autoNote(k.autoFill) + "\n\n";
  if (!k.docsUrl.empty()) s += fmt::format("[DeepSpeed documentation]({})\n", k.docsUrl);
  return s;
}

// The rows of constraints.inc on the key: what DeepSpeed requires, when, in which releases, and
// whether the row holds in the target release.
std::string constraintNotes(std::string_view path, const ConfigModel& m) {
  std::string s;
  for (const ValueConstraint* c : constraintsOn(path)) {
    std::string when = c->whenText.empty() ? "" : fmt::format(" {}", c->whenText);
    std::string target;
    if (m.deepspeed)
      target = holdsIn(*c, *m.deepspeed) ? fmt::format(" (holds in {})", m.deepspeed->str())
                                         : fmt::format(" (not in {})", m.deepspeed->str());
    std::string what = c->severity == analysis::Severity::Error
                           ? fmt::format("DeepSpeed raises `{}`", c->deepspeed)
                           : fmt::format("accepted, but {}", c->deepspeed);
    s += fmt::format("- {}{}, {}{}: {}.\n", requirementText(*c), when, releaseRange(*c), target, what);
  }
  return s.empty() ? s : "Constraints:\n\n" + s + "\n";
}

std::string_view severityLabel(analysis::Severity s) {
  switch (s) {
    case analysis::Severity::Error: return "Error";
    case analysis::Severity::Warning: return "Warning";
    case analysis::Severity::Information: return "Information";
    case analysis::Severity::Hint: return "Hint";
  }
  return "Warning";
}

}  // namespace

std::optional<HoverInfo> hover(const analysis::ConfigAnalysis& a, const std::vector<analysis::Finding>& findings,
                               std::size_t offset) {
  json::Location loc = json::locate(a.document(), offset);
  if (!loc.member) return std::nullopt;
  std::string path = json::joinPath(loc.path);
  HoverInfo h;
  h.range = loc.onKey ? loc.member->keyRange : loc.member->value.range;

  const catalog::KeyInfo* key = catalog::findKey(path);
  const catalog::SectionInfo* section = key ? nullptr : catalog::findSection(path);
  if (key) h.markdown = keyDoc(*key, a.model()) + constraintNotes(key->path, a.model());
  else if (section) h.markdown = fmt::format("**`{}`**\n\n{}\n\n[DeepSpeed documentation]({})\n", section->path.empty() ? path : section->path, section->doc, section->docsUrl);

  // A finding under the cursor explains itself first.
  for (const auto& f : findings) {
    if (offset < f.range.begin || offset >= std::max(f.range.end, f.range.begin + 1)) continue;
    std::string head = fmt::format("**{}** `{}`: {}\n\n", severityLabel(f.severity), f.code, f.message);
    h.markdown = head + h.markdown;
  }
  if (isRaceKey(path) && a.model().zero.section) {
    h.markdown += "\n---\n\n" + raceExplanation(a.model(), a.settings());
  }
  if (h.markdown.empty()) return std::nullopt;
  return h;
}

}  // namespace dsls::config

// Completion in ds_configs: keys valid in the enclosing section (present ones left out),
// documented with their default for the target release, where they apply and who fills
// "auto"; values (enums, booleans, "auto" where HF Trainer or Accelerate fill it); and,
// at the top level, whole sections (ZeRO-3 with offload, fp16, bf16, optimizer, scheduler).
// With snippets the inserted text has ${n:...} tab stops; without, it is plain text
// indented like the line it goes on.
#include "analysis/catalog/catalog.h"
#include "analysis/config/config_features.h"
#include "analysis/json/locate.h"
#include "analysis/json/path.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace dsls::config {

using analysis::CompletionInfo;
using catalog::AutoFill;

namespace {

bool filledByHf(AutoFill f) {
  return f == AutoFill::HfTrainer || f == AutoFill::Accelerate || f == AutoFill::HfAndAccelerate;
}

bool hfLauncher(const analysis::Settings& s) { return analysis::hfFillsAuto(s.launcher); }

std::string defaultFor(const catalog::KeyInfo& k, const ConfigModel& m) {
  if (m.deepspeed) return std::string(catalog::defaultAt(k, *m.deepspeed));
  return std::string(k.defaultValue);
}

std::string typeName(unsigned types) {
  if (types & catalog::Object) return "object";
  if (types & catalog::Array) return "list";
  if (types & catalog::Bool) return "boolean";
  if (types & catalog::Integer && !(types & catalog::Number)) return "integer";
  if (types & catalog::Number) return "number";
  if (types & catalog::String) return "string";
  return "value";
}

std::string stageList(const std::vector<int>& stages) {
  std::string s;
  for (std::size_t i = 0; i < stages.size(); ++i)
    s += (i ? (i + 1 == stages.size() ? " and " : ", ") : "") + std::to_string(stages[i]);
  return s;
}

std::string autoNote(AutoFill f) {
  switch (f) {
    case AutoFill::HfTrainer: return "HF Trainer fills `\"auto\"` here.";
    case AutoFill::Accelerate: return "Accelerate fills `\"auto\"` here.";
    case AutoFill::HfAndAccelerate: return "HF Trainer and Accelerate fill `\"auto\"` here.";
    case AutoFill::DeepSpeedNative: return "`\"auto\"` is a DeepSpeed value here.";
    case AutoFill::None: return "";
  }
  return "";
}

std::string documentation(const catalog::KeyInfo& k, const ConfigModel& m, std::optional<int> stage) {
  std::string s(k.doc);
  std::string def = defaultFor(k, m);
  if (!def.empty()) {
    s += m.deepspeed && !k.defaultChanges.empty() ? fmt::format("\n\nDefault in DeepSpeed {}: `{}`", m.deepspeed->str(), def)
                                                  : fmt::format("\n\nDefault: `{}`", def);
    if (!k.defaultNote.empty()) s += fmt::format(" ({})", k.defaultNote);
  } else if (!k.defaultNote.empty()) {
    s += fmt::format("\n\nDefault: {}", k.defaultNote);
  }
  if (!k.stages.empty() && stage && std::find(k.stages.begin(), k.stages.end(), *stage) == k.stages.end())
    s += fmt::format("\n\nUsed only at ZeRO stage {}; this file uses stage {}.", stageList(k.stages), *stage);
  if (!k.since.empty()) s += fmt::format("\n\nAvailable from DeepSpeed {}.", k.since);
  if (!k.removedAfter.empty()) s += fmt::format("\n\nRemoved on DeepSpeed master after {}.", k.removedAfter);
  if (std::string a = autoNote(k.autoFill); !a.empty()) s += "\n\n" + a;
  if (!k.deprecatedBy.empty()) s += fmt::format("\n\nDeprecated: use `{}`.", k.deprecatedBy);
  if (!k.docsUrl.empty()) s += fmt::format("\n\n[DeepSpeed documentation]({})", k.docsUrl);
  return s;
}

// ---- inserted text ----

// Turns snippet text into plain text: ${1:x} -> x, ${1|a,b|} -> a, $0 -> "".
std::string plainFromSnippet(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '{') {
      std::size_t close = s.find('}', i);
      std::size_t sep = s.find_first_of(":|", i);
      if (close == std::string_view::npos || sep == std::string_view::npos || sep > close) {
        out += s[i];
        continue;
      }
      std::string_view body = s.substr(sep + 1, close - sep - 1);
      if (s[sep] == '|') body = body.substr(0, body.find_first_of(",|"));  // ${1|a,b|}: the first choice
      out += body;
      i = close;
    } else if (s[i] == '$' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

// Snippet text escapes '$', '}' and '\' outside tab stops.
std::string escapeSnippet(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '$' || c == '}' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string lineIndent(std::string_view text, std::size_t offset) {
  std::size_t start = offset;
  while (start > 0 && text[start - 1] != '\n') --start;
  std::size_t end = start;
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
  return std::string(text.substr(start, end - start));
}

// Multi-line text uses '\t' for one level; snippets keep it (editors re-indent), plain
// text gets the line's indentation and two spaces per level.
std::string finish(std::string snippet, bool snippets, std::string_view text, std::size_t offset) {
  if (snippets) return snippet;
  std::string plain = plainFromSnippet(snippet);
  std::string indent = lineIndent(text, offset), out;
  for (char c : plain) {
    if (c == '\t') out += "  ";
    else if (c == '\n') out += "\n" + indent;
    else out += c;
  }
  return out;
}

// A comma when another member follows the insertion point in the same object.
std::string commaIfFollowed(std::string_view text, const json::Node& object, std::size_t offset) {
  for (const auto& m : object.members()) {
    if (m.range().begin < offset) continue;
    std::string_view between = text.substr(offset, m.keyRange.begin - offset);
    return between.find(',') == std::string_view::npos ? "," : "";
  }
  return "";
}

std::string valueSnippet(const catalog::KeyInfo& k, const ConfigModel& m, const analysis::Settings& settings) {
  if (k.types & catalog::Object) return "{$1}";  // sections, including zero_optimization's legacy boolean form
  std::vector<std::string> choices;
  for (auto v : k.allowed) choices.emplace_back(v);
  if (choices.empty() && (k.types & catalog::Bool)) {
    std::string def = defaultFor(k, m);
    choices = def == "true" ? std::vector<std::string>{"true", "false"} : std::vector<std::string>{"false", "true"};
  }
  if (filledByHf(k.autoFill) && hfLauncher(settings)) choices.insert(choices.begin(), "\"auto\"");
  if (!choices.empty()) {
    std::string joined;
    for (const auto& c : choices) joined += (joined.empty() ? "" : ",") + c;
    // Choice items may not contain ',' or '|' unescaped; the catalog values do not.
    return "${1|" + joined + "|}";
  }
  if (k.types & catalog::Array) return "[$1]";
  std::string def = defaultFor(k, m);
  if (!def.empty() && def != "null") return "${1:" + escapeSnippet(def) + "}";
  if (k.types & (catalog::Integer | catalog::Number)) return "${1:0}";
  if (k.types & catalog::String) return "\"$1\"";
  return "$1";
}

// ---- key items ----

void keyItems(const analysis::ConfigAnalysis& a, const json::Location& loc, std::size_t offset, bool snippets,
              std::vector<CompletionInfo>& out) {
  const ConfigModel& m = a.model();
  std::string section = json::joinPath(loc.enclosingObjectPath);
  std::set<std::string> present;
  for (const auto& member : loc.enclosingObject->members())
    if (!(loc.onKey && &member == loc.member)) present.emplace(member.key);
  analysis::TextRange replace{offset, offset};
  if (loc.onKey && loc.member) replace = loc.member->keyRange;
  std::string comma = loc.onKey ? "" : commaIfFollowed(a.text(), *loc.enclosingObject, offset);
  std::optional<int> stage = m.zero.stage.member && m.zero.stage.member->value.kind == json::Kind::String
                                 ? std::nullopt
                                 : m.zero.stage.value;

  for (const catalog::KeyInfo* k : catalog::childrenOf(section)) {
    std::string name(catalog::leafName(k->path));
    if (present.count(name)) continue;
    bool aliasPresent = false;
    for (auto alias : k->aliases) aliasPresent |= present.count(std::string(alias)) > 0;
    if (aliasPresent) continue;
    bool isDeprecated = !k->deprecatedBy.empty();
    bool unavailable = m.deepspeed && !catalog::availableIn(*k, *m.deepspeed);
    bool otherStage = !k->stages.empty() && stage && section.starts_with("zero_optimization") &&
                      std::find(k->stages.begin(), k->stages.end(), *stage) == k->stages.end();

    CompletionInfo item;
    item.kind = CompletionInfo::Kind::Key;
    item.label = name;
    std::string def = defaultFor(*k, m);
    item.detail = isDeprecated ? fmt::format("deprecated: use {}", k->deprecatedBy)
                  : unavailable ? fmt::format("not in DeepSpeed {}", m.deepspeed->str())
                  : def.empty() ? typeName(k->types)
                                : fmt::format("{}, default {}", typeName(k->types), def);
    item.documentation = documentation(*k, m, stage);
    if (loc.onKey) {
      item.insertText = "\"" + name + "\"";
    } else {
      std::string snippet = fmt::format("\"{}\": {}{}", name, valueSnippet(*k, m, a.settings()), comma);
      item.insertText = finish(snippet, snippets, a.text(), offset);
      item.isSnippet = snippets;
    }
    item.replace = replace;
    item.sortText = std::string(isDeprecated ? "z" : unavailable ? "y" : otherStage ? "x" : "a") + name;
    item.deprecated = isDeprecated;
    out.push_back(std::move(item));
  }
}

// ---- section snippets (top level) ----

struct SectionSnippet {
  std::string key, label, description, body;
};

// A member of a snippet object: its key and the snippet text of its value.
struct SnippetMember {
  std::string_view key;
  std::string value;
};

// "{", one member a line indented by depth + 1 tabs, and "}" indented by depth.
std::string snippetObject(const std::vector<SnippetMember>& members, std::size_t depth = 0) {
  std::string out = "{\n";
  for (std::size_t i = 0; i < members.size(); ++i) {
    out.append(depth + 1, '\t').append("\"").append(members[i].key).append("\": ").append(members[i].value);
    out.append(i + 1 < members.size() ? ",\n" : "\n");
  }
  return out.append(depth, '\t').append("}");
}

std::string snippetSection(std::string_view key, const std::vector<SnippetMember>& members) {
  return fmt::format("\"{}\": {}", key, snippetObject(members));
}

std::vector<SectionSnippet> sectionSnippets(const analysis::ConfigAnalysis& a) {
  const ConfigModel& m = a.model();
  bool hf = hfLauncher(a.settings());
  auto numberOrAuto = [&](int index, std::string_view number) {
    return fmt::format("${{{}:{}}}", index, hf ? std::string("\"auto\"") : std::string(number));
  };
  std::string enabled = hf ? "${1|\"auto\",true,false|}" : "${1|true,false|}";
  std::vector<SectionSnippet> out;

  out.push_back({"zero_optimization", "zero_optimization: ZeRO-3 with CPU offload",
                 "ZeRO stage 3 with parameters and optimizer state offloaded to the CPU. overlap_comm and "
                 "contiguous_gradients are the stage 3 defaults, written out for clarity.",
                 snippetSection("zero_optimization",
                                {{"stage", "3"},
                                 {"offload_optimizer",
                                  "{\"device\": \"${1|cpu,nvme,none|}\", \"pin_memory\": ${2|true,false|}}"},
                                 {"offload_param",
                                  "{\"device\": \"${3|cpu,nvme,none|}\", \"pin_memory\": ${4|true,false|}}"},
                                 {"overlap_comm", "true"},
                                 {"contiguous_gradients", "true"},
                                 {"reduce_bucket_size", numberOrAuto(5, "500000000")},
                                 {"stage3_prefetch_bucket_size", numberOrAuto(6, "50000000")},
                                 {"stage3_param_persistence_threshold", numberOrAuto(7, "100000")},
                                 {"stage3_gather_16bit_weights_on_model_save", "${8|true,false|}"}})});
  out.push_back({"fp16", "fp16: mixed precision with dynamic loss scaling",
                 "fp16 training with dynamic loss scaling (loss_scale 0) and DeepSpeed's default scaling settings.",
                 snippetSection("fp16", {{"enabled", enabled},
                                         {"loss_scale", "0"},
                                         {"initial_scale_power", "${2:16}"},
                                         {"loss_scale_window", "1000"},
                                         {"hysteresis", "2"},
                                         {"min_loss_scale", "1"}})});
  // check_grad_overflow exists from 0.17.1; from 0.17.1 to 0.19.2 it defaults to false.
  bool hasOverflowCheck = m.deepspeed && !(*m.deepspeed < catalog::Version{0, 17, 1});
  std::vector<SnippetMember> bf16{{"enabled", enabled}};
  if (hasOverflowCheck) bf16.push_back({"check_grad_overflow", "true"});
  out.push_back({"bf16", "bf16: bfloat16 mixed precision",
                 hasOverflowCheck ? "bfloat16 training; skips steps with NaN or inf gradients."
                                  : "bfloat16 training (no loss scaling).",
                 snippetSection("bf16", bf16)});
  out.push_back({"optimizer", "optimizer: AdamW",
                 "An optimizer DeepSpeed builds itself. Do not put max_grad_norm here: use gradient_clipping.",
                 snippetSection("optimizer", {{"type", "\"${1|AdamW,Adam,Lion,Lamb|}\""},
                                              {"params", snippetObject({{"lr", numberOrAuto(2, "1e-4")},
                                                                        {"betas", numberOrAuto(3, "[0.9, 0.999]")},
                                                                        {"eps", numberOrAuto(4, "1e-8")},
                                                                        {"weight_decay", numberOrAuto(5, "0.01")}},
                                                                       1)}})});
  out.push_back({"scheduler", "scheduler: WarmupDecayLR",
                 "Linear warm-up then linear decay; total_num_steps is required.",
                 snippetSection("scheduler", {{"type", "\"WarmupDecayLR\""},
                                              {"params", snippetObject({{"warmup_min_lr", numberOrAuto(1, "0")},
                                                                        {"warmup_max_lr", numberOrAuto(2, "1e-4")},
                                                                        {"warmup_num_steps", numberOrAuto(3, "1000")},
                                                                        {"total_num_steps", numberOrAuto(4, "100000")}},
                                                                       1)}})});
  return out;
}

void snippetItems(const analysis::ConfigAnalysis& a, const json::Location& loc, std::size_t offset, bool snippets,
                  std::vector<CompletionInfo>& out) {
  if (!loc.enclosingObjectPath.empty()) return;  // sections live at the top level
  analysis::TextRange replace{offset, offset};
  if (loc.onKey && loc.member) {
    // Typing a key with no value yet: the section replaces it.
    if (loc.member->value.kind != json::Kind::Invalid) return;
    replace = loc.member->range();
  }
  std::set<std::string> present;
  for (const auto& member : loc.enclosingObject->members())
    if (&member != loc.member) present.emplace(member.key);
  std::string comma = loc.onKey ? "" : commaIfFollowed(a.text(), *loc.enclosingObject, offset);
  for (const SectionSnippet& s : sectionSnippets(a)) {
    if (present.count(s.key) || (s.key == "bf16" && present.count("bfloat16"))) continue;
    CompletionInfo item;
    item.kind = CompletionInfo::Kind::Snippet;
    item.label = s.label;
    item.detail = "section";
    item.documentation = s.description + "\n\n```json\n" + plainFromSnippet(s.body) + "\n```";
    item.insertText = finish(s.body + comma, snippets, a.text(), offset);
    item.isSnippet = snippets;
    item.replace = replace;
    item.sortText = "a" + s.key + "~";  // right after the plain key
    out.push_back(std::move(item));
  }
}

// ---- value items ----

void valueItems(const analysis::ConfigAnalysis& a, const json::Location& loc, std::size_t offset,
                std::vector<CompletionInfo>& out) {
  const catalog::KeyInfo* k = catalog::findKey(json::joinPath(loc.path));
  if (!k || !loc.member) return;
  const json::Node& value = loc.member->value;
  // Inside an object or list value there is nothing to complete as a whole value.
  if (value.kind == json::Kind::Object || value.kind == json::Kind::Array) return;
  analysis::TextRange replace = value.range;
  if (value.kind == json::Kind::Invalid) {
    // A missing value is the blank space after the colon: insert at the cursor. Unquoted text is replaced.
    std::string_view raw = value.raw(a.text());
    if (raw.find_first_not_of(" \t\r\n") == std::string_view::npos) replace = {offset, offset};
  }
  std::string def = defaultFor(*k, a.model());
  std::vector<std::string> values;
  for (auto v : k->allowed) values.emplace_back(v);
  if (values.empty() && (k->types & catalog::Bool)) values = {"true", "false"};
  if (filledByHf(k->autoFill) && std::find(values.begin(), values.end(), "\"auto\"") == values.end())
    values.push_back("\"auto\"");
  if (values.empty() && !def.empty() && def != "null") values.push_back(def);  // at least the default
  for (const auto& v : values) {
    CompletionInfo item;
    item.kind = CompletionInfo::Kind::Value;
    item.label = v;
    item.insertText = v;
    item.replace = replace;
    if (v == def) item.detail = "default";
    else if (v == "\"auto\"" && filledByHf(k->autoFill)) item.detail = autoNote(k->autoFill);
    item.sortText = (v == def ? "a" : "b") + v;
    out.push_back(std::move(item));
  }
}

}  // namespace

std::vector<CompletionInfo> complete(const analysis::ConfigAnalysis& a, std::size_t offset, bool snippets) {
  std::vector<CompletionInfo> out;
  json::Location loc = json::locate(a.document(), offset);
  bool inObjectBody = loc.enclosingObject && loc.node == loc.enclosingObject && !loc.onKey;
  if (loc.member && !loc.onKey && !inObjectBody) {
    valueItems(a, loc, offset, out);
    return out;
  }
  if (loc.enclosingObject) {
    keyItems(a, loc, offset, snippets, out);
    snippetItems(a, loc, offset, snippets, out);
  }
  return out;
}

}  // namespace dsls::config

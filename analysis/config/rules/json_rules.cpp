// Rules about the file as JSON: syntax errors, hjson-only syntax, duplicate keys. What counts
// as an error depends on who loads the file: DeepSpeed reads a config path with hjson (from
// 0.9.0; json.load before), HF Trainer and Accelerate read it with json.load.
#include "analysis/config/rules/rule_support.h"
#include "analysis/config/rules/text_encoding.h"
#include "analysis/json/hjson_quoteless.h"

#include <fmt/format.h>

namespace dsls::config {

using namespace rules;

namespace {

enum class Loader {
  Hjson,             // launched with DeepSpeed on a release that reads a path with hjson
  JsonOldDeepSpeed,  // launched with DeepSpeed before 0.9.0: json.load
  Json,              // HF Trainer or Accelerate: json.load
  Unknown,           // launcher not known: either
};

Loader loaderOf(const RuleContext& ctx) {
  const analysis::Launcher launcher = ctx.settings.launcher;
  if (launcher == analysis::Launcher::DeepSpeed) return versionBelow(ctx, "0.9.0") ? Loader::JsonOldDeepSpeed : Loader::Hjson;
  if (analysis::hfFillsAuto(launcher)) return Loader::Json;
  return Loader::Unknown;
}

const json::Node* invalidValueAt(const json::Node& n, analysis::TextRange range) {
  if (n.kind == json::Kind::Invalid && n.range.begin == range.begin && n.range.end == range.end) return &n;
  for (const auto& m : n.members())
    if (const json::Node* hit = invalidValueAt(m.value, range)) return hit;
  for (const auto& e : n.elements())
    if (const json::Node* hit = invalidValueAt(e, range)) return hit;
  return nullptr;
}

// hjson reads past this error: the parser's verdict, or an unquoted value alone on its line.
bool hjsonReads(const RuleContext& ctx, const json::SyntaxError& e) {
  if (e.hjsonAccepts) return true;
  const json::Node* value = ctx.model.root ? invalidValueAt(*ctx.model.root, e.range) : nullptr;
  return value && json::hjsonReadsQuoteless(ctx.text, *value);
}

}  // namespace

void checkConfigTemplate(const RuleContext& ctx, std::vector<Finding>& out) {
  const auto& placeholders = ctx.doc.placeholders;
  if (placeholders.empty()) return;
  constexpr std::size_t kNamed = 4;
  std::string names;
  for (std::size_t i = 0; i < placeholders.size() && i < kNamed; ++i)
    names.append(i == 0 ? "" : ", ").append(ctx.text.substr(placeholders[i].begin, placeholders[i].end - placeholders[i].begin));
  if (placeholders.size() > kNamed) names.append(", ...");
  Finding f = makeFinding(
      RuleId::ConfigTemplate,
      fmt::format("This file is a template: {} placeholder{} ({}) {} filled in before DeepSpeed reads it. The checks "
                  "treat {} as unknown values and check the rest.",
                  placeholders.size(), placeholders.size() == 1 ? "" : "s", names,
                  placeholders.size() == 1 ? "is" : "are", placeholders.size() == 1 ? "it" : "them"),
      placeholders.front());
  for (std::size_t i = 1; i < placeholders.size() && i <= 32; ++i) f.related.push_back({"", placeholders[i], "a placeholder"});
  out.push_back(std::move(f));
}

void checkJsonSyntax(const RuleContext& ctx, std::vector<Finding>& out) {
  if (auto bom = byteOrderMarkFinding(ctx.text)) out.push_back(std::move(*bom));
  Loader loader = loaderOf(ctx);
  for (const auto& e : ctx.doc.errors) {
    Finding f = makeFinding(RuleId::JsonSyntax, e.message, e.range);
    if (hjsonReads(ctx, e)) {
      switch (loader) {
        case Loader::Hjson:
          f.severity = Severity::Warning;
          f.message += ": DeepSpeed reads past this (it loads a config path with hjson), but HF Trainer and "
                       "Accelerate reject it (json.load)";
          break;
        case Loader::JsonOldDeepSpeed:
          f.message += fmt::format(" ({} loads the config with json.load, which fails here; DeepSpeed reads a "
                                   "config path with hjson, which accepts it, from 0.9.0)",
                                   targetLabel(ctx));
          break;
        case Loader::Json:
          f.message += " (HF Trainer and Accelerate load the file with json.load, which fails here; only DeepSpeed's "
                       "own loader, hjson for a config path from 0.9.0, reads past it)";
          break;
        case Loader::Unknown:
          f.message += " (DeepSpeed's own loader, hjson for a config path from 0.9.0, reads past this; json.load in "
                       "HF Trainer and Accelerate fails)";
          break;
      }
    }
    out.push_back(std::move(f));
  }
}

namespace {

// Where json.load is sure to read the file, a comment or trailing comma is an error.
std::optional<std::string> jsonLoadFails(const RuleContext& ctx, std::string_view what) {
  Loader loader = loaderOf(ctx);
  if (loader == Loader::Json)
    return fmt::format("{}: HF Trainer and Accelerate load the file with json.load, which fails on it; only "
                       "DeepSpeed's own loader (hjson, for a config path, from 0.9.0) accepts it",
                       what);
  if (loader == Loader::JsonOldDeepSpeed)
    return fmt::format("{}: {} loads the config with json.load, which fails on it (hjson, which accepts it, from "
                       "0.9.0)",
                       what, targetLabel(ctx));
  return std::nullopt;
}

}  // namespace

void checkCommentsAndTrailingCommas(const RuleContext& ctx, std::vector<Finding>& out) {
  // Removing a trailing comma cannot change what is read, so that fix is preferred and safe;
  // removing a comment deletes what someone wrote, so it is only offered.
  auto report = [&](const analysis::TextRange& where, std::string_view what, const char* message,
                    const char* fixTitle, bool safe) {
    Finding f = makeFinding(RuleId::JsonCommentOrTrailingComma, message, where);
    if (auto fails = jsonLoadFails(ctx, what)) f.severity = Severity::Error, f.message = *fails;
    f.fixes.push_back({fixTitle, {{where, ""}}, safe, safe});
    out.push_back(std::move(f));
  };
  for (const auto& c : ctx.doc.comments)
    report(c, "comment",
           "comment: DeepSpeed's loader accepts it, but HF Trainer and Accelerate read the file with json.load, "
           "which fails on comments",
           "Remove the comment", false);
  for (const auto& t : ctx.doc.trailingCommas)
    report(t, "trailing comma",
           "trailing comma: DeepSpeed's loader accepts it, but json.load (HF Trainer, Accelerate) fails on it",
           "Remove the trailing comma", true);
}

void checkDuplicateKeys(const RuleContext& ctx, std::vector<Finding>& out) {
  for (const auto& d : ctx.doc.duplicates) {
    Finding f = makeFinding(RuleId::DuplicateKey,
                            "duplicate key \"" + d.path +
                                "\": DeepSpeed rejects the file (\"Duplicate keys in DeepSpeed config\"); json.load "
                                "silently keeps the last value",
                            d.duplicate);
    f.related.push_back({"", d.first, "first occurrence"});
    out.push_back(std::move(f));
  }
}

}  // namespace dsls::config

// Rules about the file as JSON: syntax errors, hjson-only syntax, duplicate keys.
#include "analysis/config/rule.h"
#include "analysis/config/rules/text_encoding.h"

namespace dsls::config {

using analysis::Finding;

void checkJsonSyntax(const RuleContext& ctx, std::vector<Finding>& out) {
  if (auto bom = byteOrderMarkFinding(ctx.text)) out.push_back(std::move(*bom));
  for (const auto& e : ctx.doc.errors) {
    Finding f = makeFinding(RuleId::JsonSyntax, e.message, e.range);
    if (e.hjsonAccepts)
      f.message += " (DeepSpeed's own loader reads past this, but json.load in HF Trainer and Accelerate fails)";
    out.push_back(std::move(f));
  }
}

void checkCommentsAndTrailingCommas(const RuleContext& ctx, std::vector<Finding>& out) {
  for (const auto& c : ctx.doc.comments) {
    Finding f = makeFinding(RuleId::JsonCommentOrTrailingComma,
                            "comment: DeepSpeed's loader accepts it, but HF Trainer and Accelerate read the file with "
                            "json.load, which fails on comments",
                            c);
    f.fixes.push_back({"Remove the comment", {{c, ""}}, false, false});
    out.push_back(std::move(f));
  }
  for (const auto& t : ctx.doc.trailingCommas) {
    Finding f = makeFinding(RuleId::JsonCommentOrTrailingComma,
                            "trailing comma: DeepSpeed's loader accepts it, but json.load (HF Trainer, Accelerate) "
                            "fails on it",
                            t);
    f.fixes.push_back({"Remove the trailing comma", {{t, ""}}, true, true});
    out.push_back(std::move(f));
  }
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

#include "lsp/to_lsp.h"

#include "lsp/plain_text.h"
#include "protocol/uri.h"
#include "workspace/rule_docs.h"

namespace dsls::lsp {

using protocol::Json;

protocol::Range Conversion::range(analysis::TextRange r) const {
  return {lines.position(r.begin, encoding), lines.position(r.end, encoding)};
}

Json Conversion::diagnostic(const analysis::Finding& f) const {
  Json d{{"range", range(f.range)},
         {"severity", static_cast<int>(f.severity)},
         {"code", f.code},
         {"source", "dsls"},
         {"message", f.message}};
  d["codeDescription"] = {{"href", protocol::pathToUri(workspace::ruleDocsPath(f.code))}};
  if (!f.tags.empty()) {
    Json tags = Json::array();
    for (auto t : f.tags) tags.push_back(static_cast<int>(t));
    d["tags"] = tags;
  }
  if (!f.related.empty()) {
    Json related = Json::array();
    std::string notes;
    for (const auto& r : f.related) {
      std::string targetUri = uri;
      const protocol::LineIndex* index = &lines;
      if (!r.document.empty()) {
        index = otherDocument ? otherDocument(r, targetUri) : nullptr;
        if (!index) continue;
      }
      protocol::Range rr{index->position(r.range.begin, encoding), index->position(r.range.end, encoding)};
      related.push_back({{"location", {{"uri", targetUri}, {"range", rr}}}, {"message", r.message}});
      std::string file = targetUri.substr(targetUri.find_last_of('/') + 1);
      notes += "\n" + file + ":" + std::to_string(rr.start.line + 1) + ": " + r.message;
    }
    // Clients without relatedInformation support still see the notes, in the message (as clangd does).
    if (caps.relatedInformation && !related.empty()) d["relatedInformation"] = related;
    else if (!notes.empty()) d["message"] = f.message + "\n" + notes;
  }
  return d;
}

Json Conversion::textEdit(const analysis::TextEdit& e) const {
  return Json{{"range", range(e.range)}, {"newText", e.newText}};
}

Json Conversion::workspaceEdit(const std::vector<analysis::TextEdit>& edits, std::int64_t version) const {
  Json list = Json::array();
  for (const auto& e : edits) list.push_back(textEdit(e));
  // documentChanges pins the version so a client never applies the edit to a newer text.
  return Json{{"changes", {{uri, list}}},
              {"documentChanges", Json::array({{{"textDocument", {{"uri", uri}, {"version", version}}},
                                                {"edits", list}}})}};
}

Json Conversion::markup(const std::string& markdown) const {
  if (caps.hoverMarkdown) return Json{{"kind", "markdown"}, {"value", markdown}};
  return Json{{"kind", "plaintext"}, {"value", markdownToPlainText(markdown)}};
}

Json Conversion::hover(const analysis::HoverInfo& h) const {
  return Json{{"contents", markup(h.markdown)}, {"range", range(h.range)}};
}

std::string_view codeActionKind(analysis::Action::Kind kind) {
  switch (kind) {
    case analysis::Action::Kind::QuickFix: return "quickfix";
    case analysis::Action::Kind::FixAll: return "source.fixAll.dsls";
    case analysis::Action::Kind::Refactor: return "refactor.rewrite";
  }
  return "quickfix";
}

Json Conversion::codeAction(const analysis::Action& a, Json diagnostics, std::int64_t version) const {
  Json edit = workspaceEdit(a.edits, version);
  if (!caps.codeActionLiterals)
    return Json{{"title", a.title}, {"command", kApplyEditCommand}, {"arguments", Json::array({edit})}};
  Json action{{"title", a.title}, {"kind", codeActionKind(a.kind)}, {"edit", std::move(edit)}};
  if (a.preferred) action["isPreferred"] = true;
  if (!diagnostics.empty()) action["diagnostics"] = std::move(diagnostics);
  return action;
}

Json Conversion::completionItem(const analysis::CompletionInfo& c) const {
  using K = analysis::CompletionInfo::Kind;
  enum LspKind { Property = 10, Value = 12, Snippet = 15 };
  enum Format { PlainText = 1, SnippetFormat = 2 };
  Json item{{"label", c.label},
            {"kind", c.kind == K::Key ? Property : c.kind == K::Value ? Value : Snippet},
            {"textEdit", {{"range", range(c.replace)}, {"newText", c.insertText}}},
            {"insertTextFormat", c.isSnippet ? SnippetFormat : PlainText}};
  if (!c.detail.empty()) item["detail"] = c.detail;
  if (!c.documentation.empty())
    item["documentation"] = caps.completionDocumentationMarkdown
                                ? Json{{"kind", "markdown"}, {"value", c.documentation}}
                                : Json{{"kind", "plaintext"}, {"value", markdownToPlainText(c.documentation)}};
  if (!c.sortText.empty()) item["sortText"] = c.sortText;
  constexpr int kDeprecatedTag = 1;
  if (c.deprecated) item["tags"] = Json::array({kDeprecatedTag});
  return item;
}

Json Conversion::inlayHint(const analysis::InlayHintInfo& h) const {
  Json hint{{"position", lines.position(h.offset, encoding)}, {"label", h.label}, {"paddingLeft", true}};
  if (!h.tooltip.empty()) hint["tooltip"] = markup(h.tooltip);
  return hint;
}

namespace {

int symbolKind(analysis::SymbolInfo::Kind k) {
  using K = analysis::SymbolInfo::Kind;
  // LSP SymbolKind numbers.
  switch (k) {
    case K::Object: return 19;
    case K::Array: return 18;
    case K::Boolean: return 17;
    case K::Number: return 16;
    case K::String: return 15;
    case K::Null: return 21;
  }
  return 19;
}

Json symbolTree(const analysis::SymbolInfo& s, const Conversion& c) {
  Json children = Json::array();
  for (const auto& child : s.children) children.push_back(symbolTree(child, c));
  Json j{{"name", s.name.empty() ? std::string("\"\"") : s.name},
         {"kind", symbolKind(s.kind)},
         {"range", c.range(s.range)},
         {"selectionRange", c.range(s.selection)}};
  if (!s.detail.empty()) j["detail"] = s.detail;
  if (!children.empty()) j["children"] = children;
  return j;
}

void flatSymbols(const analysis::SymbolInfo& s, const Conversion& c, const std::string& container, Json& out) {
  Json j{{"name", s.name}, {"kind", symbolKind(s.kind)}, {"location", {{"uri", c.uri}, {"range", c.range(s.range)}}}};
  if (!container.empty()) j["containerName"] = container;
  out.push_back(j);
  for (const auto& child : s.children) flatSymbols(child, c, container.empty() ? s.name : container + "." + s.name, out);
}

}  // namespace

Json Conversion::documentSymbols(const std::vector<analysis::SymbolInfo>& symbols) const {
  Json out = Json::array();
  for (const auto& s : symbols) {
    if (caps.hierarchicalSymbols) out.push_back(symbolTree(s, *this));
    else flatSymbols(s, *this, "", out);
  }
  return out;
}

Json Conversion::documentLink(const analysis::LinkInfo& l) const {
  Json link{{"range", range(l.range)}, {"target", l.target}};
  if (!l.tooltip.empty()) link["tooltip"] = l.tooltip;
  return link;
}

}  // namespace dsls::lsp

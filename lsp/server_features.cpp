// Requests answered from a document's analysis: hover, code actions, completion,
// inlay hints, outline, links, and the dsls.diagnoseText command.
#include "analysis/facade/diagnose_text.h"
#include "analysis/facade/features.h"
#include "lsp/server.h"
#include "lsp/to_lsp.h"

#include <boost/asio/post.hpp>

namespace dsls::lsp {

using protocol::ErrorCode;
using protocol::Json;

namespace {

Json markup(const protocol::ClientCapabilities& caps, const std::string& markdown) {
  return Json{{"kind", caps.hoverMarkdown ? "markdown" : "plaintext"}, {"value", markdown}};
}

int symbolKind(analysis::SymbolInfo::Kind k) {
  using K = analysis::SymbolInfo::Kind;
  switch (k) {
    case K::Object: return 19;   // Object
    case K::Array: return 18;    // Array
    case K::Boolean: return 17;  // Boolean
    case K::Number: return 16;   // Number
    case K::String: return 15;   // String
    case K::Null: return 21;     // Null
  }
  return 19;
}

Json symbolJson(const analysis::SymbolInfo& s, const Conversion& c) {
  Json children = Json::array();
  for (const auto& child : s.children) children.push_back(symbolJson(child, c));
  Json j{{"name", s.name.empty() ? std::string("\"\"") : s.name},
         {"kind", symbolKind(s.kind)},
         {"range", c.range(s.range)},
         {"selectionRange", c.range(s.selection)}};
  if (!s.detail.empty()) j["detail"] = s.detail;
  if (!children.empty()) j["children"] = children;
  return j;
}

void flattenSymbols(const analysis::SymbolInfo& s, const Conversion& c, const std::string& container, Json& out) {
  Json j{{"name", s.name}, {"kind", symbolKind(s.kind)}, {"location", {{"uri", c.uri}, {"range", c.range(s.range)}}}};
  if (!container.empty()) j["containerName"] = container;
  out.push_back(j);
  for (const auto& child : s.children) flattenSymbols(child, c, container.empty() ? s.name : container + "." + s.name, out);
}

}  // namespace

#define DSLS_CONVERSION(od) \
  Conversion convert { (od)->doc->lines(), caps_.encoding, caps_, (od)->doc->uri(), nullptr }

void Server::onHover(const Json& params, Reply reply) {
  std::string uri = documentUri(params);
  auto position = params.at("position").get<protocol::Position>();
  withAnalysis(uri, [this, reply, position](const OpenDocument* od) {
    if (reply.done()) return;
    if (!od || !od->analysis) return reply(nullptr);
    std::size_t offset = od->doc->lines().offset(position, caps_.encoding);
    auto hover = analysis::hoverAt(*od->analysis, offset);
    if (!hover) return reply(nullptr);
    DSLS_CONVERSION(od);
    reply({{"contents", markup(caps_, hover->markdown)}, {"range", convert.range(hover->range)}});
  }, reply);
}

void Server::onCodeAction(const Json& params, Reply reply) {
  std::string uri = documentUri(params);
  auto range = params.at("range").get<protocol::Range>();
  std::vector<std::string> only;
  if (auto ctx = params.find("context"); ctx != params.end() && ctx->contains("only"))
    for (const auto& k : ctx->at("only")) only.push_back(k.get<std::string>());
  withAnalysis(uri, [this, reply, range, only](const OpenDocument* od) {
    if (reply.done()) return;
    if (!od || !od->analysis) return reply(Json::array());
    auto wants = [&](std::string_view kind) {
      if (only.empty()) return true;
      for (const auto& o : only)
        if (kind == o || (kind.size() > o.size() && kind.substr(0, o.size()) == o && kind[o.size()] == '.')) return true;
      return false;
    };
    DSLS_CONVERSION(od);
    const auto& lines = od->doc->lines();
    analysis::TextRange selection{lines.offset(range.start, caps_.encoding), lines.offset(range.end, caps_.encoding)};
    std::vector<analysis::Action> actions;
    if (wants("quickfix") || wants("refactor")) actions = analysis::actionsFor(*od->analysis, selection);
    if (wants("source.fixAll.dsls"))
      if (auto all = analysis::fixAll(*od->analysis)) actions.push_back(std::move(*all));
    Json out = Json::array();
    for (const auto& a : actions) {
      const char* kind = a.kind == analysis::Action::Kind::QuickFix ? "quickfix"
                         : a.kind == analysis::Action::Kind::FixAll ? "source.fixAll.dsls"
                                                                    : "refactor.rewrite";
      if (!wants(kind)) continue;
      Json action{{"title", a.title}, {"kind", kind}, {"edit", convert.workspaceEdit(a.edits, od->doc->version())}};
      if (a.preferred) action["isPreferred"] = true;
      Json diags = Json::array();
      for (std::size_t i : a.findings)
        if (i < od->analysis->findings.size()) diags.push_back(convert.diagnostic(od->analysis->findings[i]));
      if (!diags.empty()) action["diagnostics"] = diags;
      out.push_back(action);
    }
    reply(out);
  }, reply);
}

void Server::onCompletion(const Json& params, Reply reply) {
  std::string uri = documentUri(params);
  auto position = params.at("position").get<protocol::Position>();
  withAnalysis(uri, [this, reply, position](const OpenDocument* od) {
    if (reply.done()) return;
    if (!od || !od->analysis) return reply(Json{{"isIncomplete", false}, {"items", Json::array()}});
    DSLS_CONVERSION(od);
    std::size_t offset = od->doc->lines().offset(position, caps_.encoding);
    Json items = Json::array();
    for (const auto& c : analysis::completeAt(*od->analysis, offset, caps_.completionSnippets)) {
      using K = analysis::CompletionInfo::Kind;
      Json item{{"label", c.label},
                {"kind", c.kind == K::Key ? 10 : c.kind == K::Value ? 12 : 15},  // Property, Value, Snippet
                {"textEdit", {{"range", convert.range(c.replace)}, {"newText", c.insertText}}},
                {"insertTextFormat", c.isSnippet ? 2 : 1}};
      if (!c.detail.empty()) item["detail"] = c.detail;
      if (!c.documentation.empty())
        item["documentation"] = {{"kind", caps_.completionDocumentationMarkdown ? "markdown" : "plaintext"},
                                 {"value", c.documentation}};
      if (!c.sortText.empty()) item["sortText"] = c.sortText;
      if (c.deprecated) item["tags"] = Json::array({1});
      items.push_back(item);
    }
    reply(Json{{"isIncomplete", false}, {"items", items}});
  }, reply);
}

void Server::onInlayHint(const Json& params, Reply reply) {
  std::string uri = documentUri(params);
  auto range = params.at("range").get<protocol::Range>();
  withAnalysis(uri, [this, reply, range](const OpenDocument* od) {
    if (reply.done()) return;
    if (!od || !od->analysis) return reply(Json::array());
    const auto& lines = od->doc->lines();
    analysis::TextRange visible{lines.offset(range.start, caps_.encoding), lines.offset(range.end, caps_.encoding)};
    Json out = Json::array();
    for (const auto& h : analysis::inlayHints(*od->analysis, visible)) {
      Json hint{{"position", lines.position(h.offset, caps_.encoding)}, {"label", h.label}, {"paddingLeft", true}};
      if (!h.tooltip.empty()) hint["tooltip"] = markup(caps_, h.tooltip);
      out.push_back(hint);
    }
    reply(out);
  }, reply);
}

void Server::onDocumentSymbol(const Json& params, Reply reply) {
  std::string uri = documentUri(params);
  withAnalysis(uri, [this, reply](const OpenDocument* od) {
    if (reply.done()) return;
    if (!od || !od->analysis) return reply(Json::array());
    DSLS_CONVERSION(od);
    Json out = Json::array();
    for (const auto& s : analysis::outline(*od->analysis)) {
      if (caps_.hierarchicalSymbols) out.push_back(symbolJson(s, convert));
      else flattenSymbols(s, convert, "", out);
    }
    reply(out);
  });
}

void Server::onDocumentLink(const Json& params, Reply reply) {
  std::string uri = documentUri(params);
  withAnalysis(uri, [this, reply](const OpenDocument* od) {
    if (reply.done()) return;
    if (!od || !od->analysis) return reply(Json::array());
    DSLS_CONVERSION(od);
    Json out = Json::array();
    for (const auto& l : analysis::links(*od->analysis)) {
      Json link{{"range", convert.range(l.range)}, {"target", l.target}};
      if (!l.tooltip.empty()) link["tooltip"] = l.tooltip;
      out.push_back(link);
    }
    reply(out);
  });
}

void Server::onExecuteCommand(const Json& params, Reply reply) {
  std::string command = params.at("command").get<std::string>();
  if (command != "dsls.diagnoseText") return reply.error(ErrorCode::InvalidParams, "unknown command " + command);
  const Json args = params.value("arguments", Json::array());
  if (!args.is_array() || args.empty() || !args[0].is_object() || !args[0].contains("text") || !args[0]["text"].is_string())
    return reply.error(ErrorCode::InvalidParams, "dsls.diagnoseText takes [{\"text\": \"...\"}]");
  std::string text = args[0]["text"].get<std::string>();
  // Pasted logs can be large: analyse on the pool, answer on the strand.
  boost::asio::post(pool_, [this, reply = std::move(reply), text = std::move(text)]() mutable {
    Json result;
    std::string failure;
    try {
      result = analysis::diagnoseText(text);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    // The reply moves to the strand so its bookkeeping is only ever touched there.
    boost::asio::post(strand_, [this, reply = std::move(reply), result = std::move(result), failure] {
      if (exiting_ || reply.done()) return;
      if (!failure.empty()) return reply.error(ErrorCode::InternalError, "diagnosis failed: " + failure);
      reply(result);
    });
  });
}

}  // namespace dsls::lsp

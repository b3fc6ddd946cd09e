// Requests answered from a document's analysis: hover, code actions, completion, inlay hints,
// outline, links, pull diagnostics; and the commands dsls.diagnoseText and dsls.applyEdit.
// Each feature gets the document with its current analysis (see bindFeature) and returns the
// result shaped by to_lsp.cpp.
#include "analysis/facade/diagnose_text.h"
#include "analysis/core/limits.h"
#include "analysis/facade/features.h"
#include "lsp/server.h"
#include "lsp/to_lsp.h"
#include "protocol/uri.h"
#include "workspace/launcher_inference.h"
#include "workspace/project_settings.h"
#include "workspace/workspace_versions.h"

#include <boost/asio/post.hpp>

namespace dsls::lsp {

using protocol::ErrorCode;
using protocol::Json;

namespace {

analysis::TextRange byteRange(const protocol::LineIndex& lines, const protocol::Range& r, protocol::PositionEncoding e) {
  return {lines.offset(r.start, e), lines.offset(r.end, e)};
}

// `kind` is asked for when `only` is empty, names it, or names one of its parents ("source" for "source.fixAll").
bool kindRequested(std::string_view kind, const std::vector<std::string>& only) {
  if (only.empty()) return true;
  for (const auto& o : only)
    if (kind == o || (kind.size() > o.size() && kind.substr(0, o.size()) == o && kind[o.size()] == '.')) return true;
  return false;
}

}  // namespace

Json Server::hover(const FeatureContext& ctx, const protocol::PositionParams& params) const {
  std::size_t offset = ctx.od.doc->lines().offset(params.position, caps_.encoding);
  auto info = analysis::hoverAt(*ctx.od.analysis, offset);
  return info ? ctx.convert.hover(*info) : Json(nullptr);
}

Json Server::codeActions(const FeatureContext& ctx, const protocol::CodeActionParams& params) const {
  const analysis::DocumentAnalysis& result = *ctx.od.analysis;
  std::vector<analysis::Action> actions;
  if (kindRequested("quickfix", params.only) || kindRequested("refactor", params.only))
    actions = analysis::actionsFor(result, byteRange(ctx.od.doc->lines(), params.range, caps_.encoding));
  if (kindRequested("source.fixAll.dsls", params.only))
    if (auto all = analysis::fixAll(result)) actions.push_back(std::move(*all));
  Json out = Json::array();
  for (const auto& a : actions) {
    if (!kindRequested(codeActionKind(a.kind), params.only)) continue;
    Json resolved = Json::array();
    for (std::size_t i : a.findings)
      if (i < result.findings.size()) resolved.push_back(ctx.convert.diagnostic(result.findings[i]));
    out.push_back(ctx.convert.codeAction(a, std::move(resolved), ctx.od.doc->version()));
  }
  return out;
}

Json Server::completion(const FeatureContext& ctx, const protocol::PositionParams& params) const {
  std::size_t offset = ctx.od.doc->lines().offset(params.position, caps_.encoding);
  Json items = Json::array();
  for (const auto& c : analysis::completeAt(*ctx.od.analysis, offset, caps_.completionSnippets))
    items.push_back(ctx.convert.completionItem(c));
  // A list cut at the bound is incomplete: the client asks again as the user types.
  return Json{{"isIncomplete", items.size() >= analysis::kMaxCompletionItems}, {"items", items}};
}

Json Server::inlayHints(const FeatureContext& ctx, const protocol::RangeParams& params) const {
  Json out = Json::array();
  auto visible = byteRange(ctx.od.doc->lines(), params.range, caps_.encoding);
  for (const auto& h : analysis::inlayHints(*ctx.od.analysis, visible)) out.push_back(ctx.convert.inlayHint(h));
  return out;
}

Json Server::documentSymbols(const FeatureContext& ctx, const protocol::DocumentParams&) const {
  return ctx.convert.documentSymbols(analysis::outline(*ctx.od.analysis));
}

Json Server::documentLinks(const FeatureContext& ctx, const protocol::DocumentParams&) const {
  Json out = Json::array();
  for (const auto& l : analysis::links(*ctx.od.analysis)) out.push_back(ctx.convert.documentLink(l));
  // A launch script, YAML or Python source that hands a config file to its reader links to it.
  const auto path = protocol::uriToPath(ctx.od.doc->uri());
  if (!path || ctx.od.analysis->kind == analysis::DocumentKind::DsConfig || ctx.od.analysis->kind == analysis::DocumentKind::Log)
    return out;
  for (const auto& link : workspace::configLinks(*path, ctx.od.doc->text(), workspace::pinSearchFolders(*path, workspaceRoots_))) {
    // The launcher as the dsls.launcher setting spells it: the reader this line hands the file to.
    const std::string reader(analysis::launcherWord(link.launcher));
    out.push_back(ctx.convert.documentLink({link.range, protocol::pathToUri(link.path), "ds_config, read with launcher " + reader}));
  }
  return out;
}

Json Server::documentDiagnostic(const FeatureContext& ctx, const protocol::DocumentDiagnosticParams& params) const {
  // Linked documents add related information, so their changes are part of the id.
  std::string resultId = std::to_string(ctx.od.analysisGeneration) + "." + std::to_string(linkEpoch_);
  if (params.previousResultId == resultId) return Json{{"kind", "unchanged"}, {"resultId", resultId}};
  return Json{{"kind", "full"}, {"resultId", resultId}, {"items", diagnosticsJson(ctx.od)}};
}

void Server::onExecuteCommand(const protocol::ExecuteCommandParams& params, Reply reply) {
  if (params.command == "dsls.diagnoseText") {
    protocol::ParamReader args(params.arguments, "params.arguments");
    return diagnoseText(args.element(0).field("text").string(), params.workDoneToken, std::move(reply));
  }
  if (params.command == "dsls.diagnoseFolder") {
    protocol::ParamReader args(params.arguments, "params.arguments");
    return diagnoseFolder(args.element(0).field("uri").string(), params.workDoneToken, std::move(reply));
  }
  if (params.command == kApplyEditCommand) {
    protocol::ParamReader args(params.arguments, "params.arguments");
    const Json& edit = args.element(0).json();
    if (!edit.is_object()) args.element(0).fail("a WorkspaceEdit object");
    return applyEdit(edit, std::move(reply));
  }
  reply.error(ErrorCode::InvalidParams, "unknown command " + params.command);
}

void Server::diagnoseText(std::string text, std::optional<Json> workDoneToken, Reply reply) {
  // Pasted logs can be large: analysed on the background lane.
  // A selection has no file: the editor's settings and the workspace's pins name the versions.
  runBackgroundJob("dsls.diagnoseText", std::move(workDoneToken), std::move(reply),
                   [text = std::move(text), settings = settings_, roots = workspaceRoots_](
                       const analysis::Cancellation& cancel, const JobProgress&) mutable {
                     analysis::Settings effective = workspace::resolveSettings("", settings, false).settings;
                     workspace::detectWorkspaceVersions(roots, effective);
                     return analysis::diagnoseText(text, effective, cancel);
                   });
}

void Server::applyEdit(const Json& edit, Reply reply) {
  // The Command form of a fix, for clients without code action literals: the client applies it.
  request("workspace/applyEdit", {{"label", "dsls fix"}, {"edit", edit}}, [reply](const Json& result, const Json& error) {
    if (reply.done()) return;
    if (!error.is_null()) return reply.error(ErrorCode::RequestFailed, "the client did not apply the edit");
    if (result.is_object() && result.value("applied", false) == false)
      return reply.error(ErrorCode::RequestFailed, "the client did not apply the edit: " + result.value("failureReason", std::string("no reason given")));
    reply(nullptr);
  });
}

}  // namespace dsls::lsp

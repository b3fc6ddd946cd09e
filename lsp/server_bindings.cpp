// Typed dispatch: every method dsls serves, bound once, in the style of clangd's LSPBinder.
// The binders parse params into structs (InvalidParams names the JSON path of the problem),
// run the shared preamble of document features, and leave conversions to to_lsp.cpp.
#include "lsp/server.h"
#include "lsp/to_lsp.h"

#include <type_traits>

namespace dsls::lsp {

using protocol::ErrorCode;
using protocol::Json;

namespace {

template <typename Params>
Params parseOrPass(const Json& raw) {
  if constexpr (std::is_same_v<Params, Json>) return raw;
  else return protocol::parseParams<Params>(raw);
}

}  // namespace

template <typename Params>
void Server::bind(std::string method, void (Server::*handler)(const Params&, Reply)) {
  requests_[std::move(method)] = [this, handler](const Json& raw, Reply reply) {
    (this->*handler)(parseOrPass<Params>(raw), std::move(reply));
  };
}

template <typename Params>
void Server::bindNotification(std::string method, void (Server::*handler)(const Params&)) {
  notifications_[std::move(method)] = [this, handler](Json&& raw) { (this->*handler)(parseOrPass<Params>(raw)); };
}

template <typename Params>
void Server::bindNotification(std::string method, void (Server::*handler)(Params)) {
  notifications_[std::move(method)] = [this, handler](Json&& raw) {
    (this->*handler)(protocol::takeParams<Params>(std::move(raw)));
  };
}

template <typename Params>
void Server::bindFeature(std::string method, Feature<Params> feature, Json empty, Positions positions) {
  requests_[method] = [this, method, feature, empty = std::move(empty), positions](const Json& raw, Reply reply) {
    Params params = protocol::parseParams<Params>(raw);
    std::string uri = params.uri;
    auto run = [this, method, feature, empty, params = std::move(params), reply](const OpenDocument* od) {
      if (reply.done()) return;
      if (od && !od->outOfSync.empty()) return reply.error(ErrorCode::RequestFailed, outOfSyncMessage(*od));
      if (!od || !od->analysis) return reply(empty);
      // This may run later, from analysisDone, outside the dispatcher's exception handling.
      try {
        Conversion convert = conversionFor(*od);
        reply((this->*feature)(FeatureContext{*od, convert}, params));
      } catch (const std::exception& e) {
        log_.error("{} failed: {}", method, e.what());
        reply.error(ErrorCode::InternalError, std::string("internal error: ") + e.what());
      }
    };
    withAnalysis(uri, std::move(run), positions == Positions::InParams ? std::optional<Reply>(reply) : std::nullopt);
  };
}

Conversion Server::conversionFor(const OpenDocument& od) const {
  return Conversion{od.doc->lines(), caps_.encoding, caps_, od.doc->uri(),
                    [this](const analysis::Related& r, std::string& uri) -> const protocol::LineIndex* {
                      auto it = documents_.find(r.document);
                      // Offsets of one revision never go through another revision's line index.
                      if (it == documents_.end() || !linkable(it->second) || it->second.generation != r.revision)
                        return nullptr;
                      uri = it->first;
                      return &it->second.doc->lines();
                    }};
}

void Server::bindHandlers() {
  using namespace protocol;
  bind<Json>("initialize", &Server::onInitialize);
  bind<Json>("shutdown", &Server::onShutdown);
  bind<ExecuteCommandParams>("workspace/executeCommand", &Server::onExecuteCommand);

  const Json none = nullptr, noList = Json::array();
  bindFeature<DocumentDiagnosticParams>("textDocument/diagnostic", &Server::documentDiagnostic,
                                        Json{{"kind", "full"}, {"items", Json::array()}}, Positions::None);
  bindFeature<PositionParams>("textDocument/hover", &Server::hover, none, Positions::InParams);
  bindFeature<CodeActionParams>("textDocument/codeAction", &Server::codeActions, noList, Positions::InParams);
  bindFeature<PositionParams>("textDocument/completion", &Server::completion,
                              Json{{"isIncomplete", false}, {"items", Json::array()}}, Positions::InParams);
  bindFeature<RangeParams>("textDocument/inlayHint", &Server::inlayHints, noList, Positions::InParams);
  bindFeature<DocumentParams>("textDocument/documentSymbol", &Server::documentSymbols, noList, Positions::None);
  bindFeature<DocumentParams>("textDocument/documentLink", &Server::documentLinks, noList, Positions::None);

  bindNotification<Json>("initialized", &Server::onInitialized);
  bindNotification<Json>("exit", &Server::onExit);
  bindNotification<Json>("$/cancelRequest", &Server::onCancelRequest);
  bindNotification<Json>("window/workDoneProgress/cancel", &Server::onWorkDoneProgressCancel);
  notifications_["$/setTrace"] = [](const Json&) {};  // dsls has one log level, set on the command line
  bindNotification<Json>("workspace/didChangeConfiguration", &Server::onDidChangeConfiguration);
  bindNotification<Json>("workspace/didChangeWatchedFiles", &Server::onDidChangeWatchedFiles);
  bindNotification<DidOpenParams>("textDocument/didOpen", &Server::onDidOpen);
  notifications_["textDocument/didChange"] = [this](Json&& raw) { onDidChangeMessage(std::move(raw)); };
  bindNotification<DocumentParams>("textDocument/didSave", &Server::onDidSave);
  bindNotification<DocumentParams>("textDocument/didClose", &Server::onDidClose);
}

}  // namespace dsls::lsp

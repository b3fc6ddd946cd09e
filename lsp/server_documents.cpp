// Document sync, debounced analysis on the pool, and diagnostics (push and pull).
#include "analysis/facade/cross_links.h"
#include "lsp/project_settings.h"
#include "lsp/server.h"
#include "lsp/to_lsp.h"
#include "protocol/uri.h"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace dsls::lsp {

using protocol::Json;

std::string Server::documentUri(const Json& params) {
  return params.at("textDocument").at("uri").get<std::string>();
}

Server::OpenDocument* Server::find(const std::string& uri) {
  auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : &it->second;
}

void Server::onDidOpen(const Json& params) {
  const Json& td = params.at("textDocument");
  std::string uri = td.at("uri").get<std::string>();
  if (documents_.count(uri)) log_.warn("didOpen for {} which is already open; replacing it", uri);
  OpenDocument od;
  od.doc = std::make_unique<Document>(uri, td.value("languageId", ""), td.value("version", 0),
                                      td.at("text").get<std::string>());
  od.debounce = std::make_unique<boost::asio::steady_timer>(io_);
  // Replacing keeps pending waiters of the old entry answered rather than lost.
  if (auto* old = find(uri)) {
    auto waiters = std::move(old->waiters);
    documents_.erase(uri);
    for (auto& w : waiters) w(nullptr);
  }
  auto& entry = documents_.emplace(uri, std::move(od)).first->second;
  scheduleAnalysis(entry, true);
}

void Server::onDidChange(const Json& params) {
  std::string uri = documentUri(params);
  OpenDocument* od = find(uri);
  if (!od) {
    log_.warn("didChange for {} which is not open; ignored", uri);
    return;
  }
  for (const auto& change : params.at("contentChanges"))
    od->doc->apply(change.get<protocol::ContentChange>(), caps_.encoding);
  const Json& td = params.at("textDocument");
  if (auto v = td.find("version"); v != td.end() && v->is_number_integer()) od->doc->setVersion(v->get<std::int64_t>());
  scheduleAnalysis(*od, false);
}

void Server::onDidSave(const Json& params) {
  std::string uri = documentUri(params);
  if (!find(uri)) log_.debug("didSave for {} which is not open", uri);
}

void Server::onDidClose(const Json& params) {
  std::string uri = documentUri(params);
  auto it = documents_.find(uri);
  if (it == documents_.end()) {
    log_.warn("didClose for {} which is not open; ignored", uri);
    return;
  }
  auto waiters = std::move(it->second.waiters);
  auto analysis = it->second.analysis;
  documents_.erase(it);
  for (auto& w : waiters) w(nullptr);
  releaseMemorySoon();
  if (!caps_.pullDiagnostics)
    notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", Json::array()}});
  // Links to the closed document disappear from the others.
  if (analysis && (analysis->config || analysis->log)) {
    OpenDocument gone;
    gone.analysis = analysis;
    republishLinked(gone);
  }
}

void Server::scheduleAnalysis(OpenDocument& od, bool immediately) {
  std::string uri = od.doc->uri();
  od.debounce->cancel();
  if (immediately) {
    boost::asio::post(strand_, [this, uri] { startAnalysis(uri); });
    return;
  }
  od.debounce->expires_after(options_.debounce);
  od.debounce->async_wait(boost::asio::bind_executor(strand_, [this, uri](const boost::system::error_code& ec) {
    if (!ec) startAnalysis(uri);
  }));
}

void Server::startAnalysis(const std::string& uri) {
  OpenDocument* od = find(uri);
  if (!od || exiting_) return;
  std::uint64_t revision = od->doc->revision();
  if (od->analysisRevision == revision || od->inFlightRevision == revision) return;
  od->inFlightRevision = revision;
  // The pool gets a snapshot; the strand keeps ownership of the live document.
  boost::asio::post(pool_, [this, uri, revision, language = od->doc->languageId(), text = od->doc->text(),
                            settings = settings_]() mutable {
    std::shared_ptr<const analysis::DocumentAnalysis> result;
    try {
      // The [tool.dsls] section of the nearest pyproject.toml applies under the editor's settings,
      // so the editor and `dsls check` agree.
      if (auto path = protocol::uriToPath(uri)) settings = settingsForFile(*path, settings);
      result = analysis::analyzeDocument(uri, language, std::move(text), settings);
    } catch (const std::exception& e) {
      log_.error("analysis of {} failed: {}", uri, e.what());
      auto empty = std::make_shared<analysis::DocumentAnalysis>();
      empty->name = uri;
      result = empty;
    }
    boost::asio::post(strand_, [this, uri, revision, result] { analysisDone(uri, revision, result); });
  });
}

void Server::analysisDone(const std::string& uri, std::uint64_t revision,
                          std::shared_ptr<const analysis::DocumentAnalysis> result) {
  OpenDocument* od = find(uri);
  if (!od || exiting_) return;
  if (od->inFlightRevision == revision) od->inFlightRevision = 0;
  if (revision != od->doc->revision()) {
    log_.debug("dropping the analysis of {} revision {} (now {})", uri, revision, od->doc->revision());
    if (!od->waiters.empty()) scheduleAnalysis(*od, true);
    return;
  }
  od->analysis = std::move(result);
  od->analysisRevision = revision;
  if (!caps_.pullDiagnostics) publishDiagnostics(*od);
  if (od->analysis->config || od->analysis->log) republishLinked(*od);
  auto waiters = std::move(od->waiters);
  for (auto& w : waiters) w(od);
}

void Server::withAnalysis(const std::string& uri, std::function<void(const OpenDocument*)> fn,
                          std::optional<Reply> positioned) {
  OpenDocument* od = find(uri);
  if (!od) return fn(nullptr);
  if (od->analysis && od->analysisRevision == od->doc->revision()) return fn(od);
  if (positioned) {
    fn = [fn = std::move(fn), reply = std::move(*positioned), revision = od->doc->revision()](const OpenDocument* now) {
      if (now && now->doc->revision() != revision) {
        if (!reply.done())
          reply.error(protocol::ErrorCode::ContentModified, "the document changed before the request was answered");
        return;
      }
      fn(now);
    };
  }
  od->waiters.push_back(std::move(fn));
  if (od->inFlightRevision != od->doc->revision()) scheduleAnalysis(*od, true);
}

void Server::releaseMemorySoon() {
#ifdef __GLIBC__
  // glibc keeps what the closed documents' analyses freed in its arenas (the pool threads
  // allocate in arenas of their own); without a trim the server stays at its peak size.
  trimTimer_.expires_after(std::chrono::milliseconds(500));
  trimTimer_.async_wait(boost::asio::bind_executor(strand_, [](const boost::system::error_code& ec) {
    if (!ec) ::malloc_trim(0);
  }));
#endif
}

Json Server::diagnosticsJson(const OpenDocument& od) const {
  Json list = Json::array();
  if (!od.analysis) return list;
  Conversion convert{od.doc->lines(), caps_.encoding, caps_, od.doc->uri(),
                     [this](const std::string& document, std::string& uri) -> const protocol::LineIndex* {
                       auto it = documents_.find(document);
                       if (it == documents_.end()) return nullptr;
                       uri = it->first;
                       return &it->second.doc->lines();
                     }};
  for (const auto& f : linkedFindings(od)) list.push_back(convert.diagnostic(f));
  return list;
}

std::vector<analysis::Finding> Server::linkedFindings(const OpenDocument& od) const {
  std::vector<analysis::Finding> findings = od.analysis->findings;
  for (const auto& [uri, other] : documents_) {
    if (&other == &od || !other.analysis) continue;
    if (od.analysis->config && other.analysis->log)
      for (auto& [i, related] : analysis::crossLink(*od.analysis, *other.analysis).forConfig)
        findings[i].related.push_back(related);
    if (od.analysis->log && other.analysis->config)
      for (auto& [i, related] : analysis::crossLink(*other.analysis, *od.analysis).forLog)
        findings[i].related.push_back(related);
  }
  return findings;
}

void Server::republishLinked(const OpenDocument& changed) {
  if (caps_.pullDiagnostics) {
    if (caps_.diagnosticRefresh) request("workspace/diagnostic/refresh", nullptr, [](const Json&, const Json&) {});
    return;
  }
  for (const auto& [uri, other] : documents_) {
    if (&other == &changed || !other.analysis || other.analysisRevision != other.doc->revision()) continue;
    bool linked = (changed.analysis->config && other.analysis->log) || (changed.analysis->log && other.analysis->config);
    if (linked) publishDiagnostics(other);
  }
}

void Server::publishDiagnostics(const OpenDocument& od) {
  notify("textDocument/publishDiagnostics",
         {{"uri", od.doc->uri()}, {"version", od.doc->version()}, {"diagnostics", diagnosticsJson(od)}});
}

void Server::onDocumentDiagnostic(const Json& params, Reply reply) {
  std::string uri = documentUri(params);
  std::string previous = params.value("previousResultId", "");
  withAnalysis(uri, [this, reply, previous](const OpenDocument* od) {
    if (reply.done()) return;
    if (!od) return reply({{"kind", "full"}, {"items", Json::array()}});
    std::string resultId = std::to_string(od->analysisRevision) + "." + std::to_string(settingsGeneration_);
    if (previous == resultId) return reply({{"kind", "unchanged"}, {"resultId", resultId}});
    reply({{"kind", "full"}, {"resultId", resultId}, {"items", diagnosticsJson(*od)}});
  });
}

}  // namespace dsls::lsp

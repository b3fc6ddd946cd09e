// Document sync, debounced analysis on the interactive lane, and diagnostics (push and pull).
#include "analysis/facade/cross_links.h"
#include "analysis/facade/features.h"
#include "lsp/server.h"
#include "lsp/to_lsp.h"
#include "protocol/uri.h"
#include "workspace/project_settings.h"
#include "workspace/workspace_versions.h"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace dsls::lsp {

using protocol::Json;

Server::OpenDocument* Server::find(const std::string& uri) {
  auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : &it->second;
}

void Server::onDidOpen(protocol::DidOpenParams params) {
  const std::string& uri = params.uri;
  if (documents_.count(uri)) log_.warn("didOpen for {} which is already open; replacing it", uri);
  OpenDocument od;
  // The text moves: a document can be tens of MB.
  od.doc = std::make_unique<Document>(uri, params.languageId, params.version, std::move(params.text));
  od.debounce = std::make_unique<boost::asio::steady_timer>(io_);
  // Replacing keeps pending waiters of the old entry answered rather than lost.
  std::shared_ptr<const analysis::DocumentAnalysis> replaced;
  if (auto* old = find(uri)) {
    auto waiters = std::move(old->waiters);
    replaced = std::move(old->analysis);
    documents_.erase(uri);
    for (auto& w : waiters) w(nullptr);
  }
  auto& entry = documents_.emplace(uri, std::move(od)).first->second;
  invalidate(entry);
  scheduleAnalysis(entry, true);
  dropLinks(std::move(replaced));
}

void Server::onDidChangeMessage(Json&& raw) {
  std::string uri;
  if (const Json* td = raw.is_object() && raw.contains("textDocument") ? &raw["textDocument"] : nullptr;
      td && td->is_object() && td->contains("uri") && (*td)["uri"].is_string())
    uri = (*td)["uri"].get<std::string>();
  protocol::DidChangeParams params;
  try {
    params = protocol::takeParams<protocol::DidChangeParams>(std::move(raw));
  } catch (const std::exception& e) {
    OpenDocument* od = find(uri);
    if (!od) throw;
    return markOutOfSync(*od, std::string("a malformed change: ") + e.what());
  }
  onDidChange(std::move(params));
}

void Server::onDidChange(protocol::DidChangeParams params) {
  const std::string& uri = params.uri;
  OpenDocument* od = find(uri);
  if (!od) {
    log_.warn("didChange for {} which is not open; ignored", uri);
    return;
  }
  std::string problem;
  if (params.version && *params.version < od->doc->version())
    problem = "version " + std::to_string(*params.version) + " after " + std::to_string(od->doc->version());
  // A full text is the whole document again, whatever came before it.
  for (auto& change : params.changes) {
    if (!change.range) problem.clear(), od->outOfSync.clear();
    else if (!problem.empty() || !od->outOfSync.empty()) continue;
    problem = od->doc->apply(std::move(change), caps_.encoding);
  }
  if (!problem.empty()) return markOutOfSync(*od, std::move(problem));
  if (!od->outOfSync.empty()) return;
  if (params.version) od->doc->setVersion(*params.version);
  invalidate(*od);
  scheduleAnalysis(*od, false);
}

void Server::markOutOfSync(OpenDocument& od, std::string why) {
  const bool already = !od.outOfSync.empty();
  od.outOfSync = std::move(why);
  log_.warn("{}", outOfSyncMessage(od));
  if (already) return;
  invalidate(od);
  od.debounce->cancel();
  auto analysis = std::move(od.analysis);
  od.analysisGeneration = 0;
  auto waiters = std::move(od.waiters);
  for (auto& w : waiters) w(&od);
  // Diagnostics of a text the client no longer has would stay on screen: clear them once.
  if (!caps_.pullDiagnostics)
    notify("textDocument/publishDiagnostics",
           {{"uri", od.doc->uri()}, {"version", od.doc->version()}, {"diagnostics", Json::array()}});
  dropLinks(std::move(analysis));
}

std::string Server::outOfSyncMessage(const OpenDocument& od) {
  return od.doc->uri() + " is out of sync (" + od.outOfSync + "); reopen it or send its full text";
}

void Server::onDidSave(const protocol::DocumentParams& params) {
  const std::string& uri = params.uri;
  if (!find(uri)) log_.debug("didSave for {} which is not open", uri);
}

void Server::onDidClose(const protocol::DocumentParams& params) {
  const std::string uri = params.uri;
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
  dropLinks(std::move(analysis));
}

void Server::dropLinks(std::shared_ptr<const analysis::DocumentAnalysis> analysis) {
  if (!analysis || !(analysis->config || analysis->log)) return;
  ++linkEpoch_;
  OpenDocument gone;
  republishLinked(gone, analysis->config != nullptr, analysis->log != nullptr);
}

void Server::invalidate(OpenDocument& od) {
  // Links into this document stop until its new analysis: a pull meanwhile gets a new result id.
  // Pushed links stay until then, so an edit does not make them flicker.
  if (od.analysis && (od.analysis->config || od.analysis->log)) ++linkEpoch_;
  od.generation = nextGeneration_++;
  // The analysis running now is for an older generation: its result would be dropped.
  if (od.inFlightCancel) od.inFlightCancel->store(true, std::memory_order_relaxed);
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
  if (!od || exiting_ || !od->outOfSync.empty()) return;
  std::uint64_t generation = od->generation;
  if (od->analysisGeneration == generation || od->inFlightGeneration == generation) return;
  od->inFlightGeneration = generation;
  od->inFlightCancel = std::make_shared<std::atomic<bool>>(false);
  // The interactive lane gets a snapshot of every input; the strand keeps ownership of the live document.
  // The last analysis goes too: an edit inside one value of a ds_config reuses its parse.
  scheduler_.post(Lane::Interactive, [this, uri, generation, language = od->doc->languageId(), text = od->doc->sharedText(),
                            previous = od->analysis, settings = settings_, roots = workspaceRoots_,
                            cancel = analysis::Cancellation(od->inFlightCancel)]() mutable {
    std::shared_ptr<const analysis::DocumentAnalysis> result;
    std::vector<std::string> projectErrors;
    analysis::Settings effective = settings.settings;
    try {
      // The [tool.dsls] section of the nearest pyproject.toml applies under the editor's settings,
      // and the nearest pin from the file's folder up to the workspace root, as `dsls check` reads them.
      if (auto path = protocol::uriToPath(uri)) {
        workspace::ResolvedSettings resolved = workspace::resolveSettings(*path, settings, true, roots);
        effective = std::move(resolved.settings);
        projectErrors = std::move(resolved.errors);
      } else {
        effective = workspace::resolveSettings("", settings, false).settings;
        workspace::detectWorkspaceVersions(roots, effective);
      }
      result = analysis::analyzeDocument(uri, language, std::move(text), effective, std::nullopt, cancel, previous.get());
    } catch (const analysis::Cancelled&) {
      // Superseded: no result; analysisDone drops it like any stale one.
      log_.debug("the analysis of {} generation {} stopped: the document changed", uri, generation);
    } catch (const std::exception& e) {
      log_.error("analysis of {} failed: {}", uri, e.what());
      auto empty = std::make_shared<analysis::DocumentAnalysis>();
      empty->name = uri;
      result = empty;
    }
    boost::asio::post(strand_, [this, uri, generation, result, projectErrors = std::move(projectErrors)] {
      // `dsls check` stops on these (exit 2); the editor says so once per message and goes on.
      for (const auto& e : projectErrors)
        if (projectErrorsShown_.insert(e).second) showWarning(e);
      analysisDone(uri, generation, result);
    });
  });
}

void Server::analysisDone(const std::string& uri, std::uint64_t generation,
                          std::shared_ptr<const analysis::DocumentAnalysis> result) {
  OpenDocument* od = find(uri);
  if (!od || exiting_) return;
  if (od->inFlightGeneration == generation) {
    od->inFlightGeneration = 0;
    od->inFlightCancel.reset();
  }
  if (generation != od->generation || !result) {
    log_.debug("dropping the analysis of {} generation {} (now {})", uri, generation, od->generation);
    if (!od->waiters.empty()) scheduleAnalysis(*od, true);
    return;
  }
  // Links follow the old analysis as well as the new one: a config edited into other JSON takes
  // its links out of the logs.
  const bool wasConfig = od->analysis && od->analysis->config, wasLog = od->analysis && od->analysis->log;
  od->analysis = std::move(result);
  od->analysisGeneration = generation;
  const bool config = wasConfig || od->analysis->config, log = wasLog || od->analysis->log;
  if (config || log) ++linkEpoch_;
  // A document that is neither a config nor a log gets nothing, unless earlier diagnostics need clearing.
  const bool other = od->analysis->kind == analysis::DocumentKind::Other;
  if (!caps_.pullDiagnostics && (!other || od->published)) {
    publishDiagnostics(*od);
    od->published = !other;
  }
  if (!od->sizeNoticeShown) {
    if (std::string notice = analysis::sizeNotice(*od->analysis); !notice.empty()) {
      od->sizeNoticeShown = true;
      notify("window/showMessage", {{"type", 3}, {"message", notice}});
    }
  }
  if (config || log) republishLinked(*od, config, log);
  auto waiters = std::move(od->waiters);
  for (auto& w : waiters) w(od);
}

void Server::withAnalysis(const std::string& uri, std::function<void(const OpenDocument*)> fn,
                          std::optional<Reply> positioned) {
  OpenDocument* od = find(uri);
  if (!od) return fn(nullptr);
  if (!od->outOfSync.empty()) return fn(od);
  if (od->analysis && od->analysisGeneration == od->generation) return fn(od);
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
  if (od->inFlightGeneration != od->generation) scheduleAnalysis(*od, true);
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
  Conversion convert = conversionFor(od);
  for (const auto& f : linkedFindings(od)) list.push_back(convert.diagnostic(f));
  return list;
}

bool Server::linkable(const OpenDocument& od) {
  return od.analysis && od.analysisGeneration == od.generation && (od.analysis->config || od.analysis->log);
}

std::vector<analysis::Finding> Server::linkedFindings(const OpenDocument& od) const {
  std::vector<analysis::Finding> findings = od.analysis->findings;
  // A document being re-analysed gives no links: its old offsets do not fit its new text.
  if (!linkable(od)) return findings;
  for (const auto& entry : documents_) {
    const OpenDocument& other = entry.second;  // not a structured binding: older clang cannot capture one
    if (&other == &od || !linkable(other)) continue;
    auto add = [&](std::vector<std::pair<std::size_t, analysis::Related>> links) {
      for (auto& [i, related] : links) {
        related.revision = other.generation;
        findings[i].related.push_back(std::move(related));
      }
    };
    if (od.analysis->config && other.analysis->log) add(analysis::crossLink(*od.analysis, *other.analysis).forConfig);
    if (od.analysis->log && other.analysis->config) add(analysis::crossLink(*other.analysis, *od.analysis).forLog);
  }
  return findings;
}

void Server::republishLinked(const OpenDocument& changed, bool config, bool log) {
  if (caps_.pullDiagnostics) {
    if (caps_.diagnosticRefresh) request("workspace/diagnostic/refresh", nullptr, [](const Json&, const Json&) {});
    return;
  }
  for (const auto& [uri, other] : documents_) {
    if (&other == &changed || !linkable(other)) continue;
    if ((config && other.analysis->log) || (log && other.analysis->config)) publishDiagnostics(other);
  }
}

void Server::publishDiagnostics(const OpenDocument& od) {
  notify("textDocument/publishDiagnostics",
         {{"uri", od.doc->uri()}, {"version", od.doc->version()}, {"diagnostics", diagnosticsJson(od)}});
}

}  // namespace dsls::lsp

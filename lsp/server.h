// The language server: owns all state on one strand, runs work on two lanes of threads,
// and talks to the client through a Transport.
//
// Threads: the transport's reader posts each message to the strand; every handler,
// the document store and the reply bookkeeping run on the strand only; document analyses
// run on the scheduler's interactive lane, folder and text diagnoses on its background lane
// (lsp/scheduler.h), and post their results back. Nothing here needs a lock.
#pragma once

#include "analysis/core/cancel.h"
#include "analysis/facade/document_analysis.h"
#include "lsp/document.h"
#include "lsp/logger.h"
#include "lsp/scheduler.h"
#include "lsp/transport.h"
#include "protocol/jsonrpc.h"
#include "protocol/lsp_types.h"
#include "protocol/params.h"
#include "workspace/setting_values.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace dsls::lsp {

struct Conversion;

struct ServerOptions {
  std::chrono::milliseconds debounce{50};
  int analysisThreads = 2;
  int backgroundThreads = 1;  // folder and text diagnoses, one at a time by default
};

class Server {
 public:
  Server(Transport& transport, Logger& log, ServerOptions options = {});
  ~Server();
  // Serves until `exit` or the end of input; returns the process exit code.
  int run();

 private:
  using Json = protocol::Json;
  class ReplyState;
  // A request's reply channel: answers exactly once; an unanswered request gets an internal error.
  class Reply {
   public:
    explicit Reply(std::shared_ptr<ReplyState> state) : state_(std::move(state)) {}
    void operator()(Json result) const;
    void error(protocol::ErrorCode code, std::string_view message) const;
    bool done() const;
    // Set by $/cancelRequest (or the end of the session): the work behind the reply stops.
    analysis::Cancellation cancellation() const;
    void cancel() const;

   private:
    std::shared_ptr<ReplyState> state_;
  };
  using RequestHandler = std::function<void(const Json& params, Reply reply)>;
  using NotificationHandler = std::function<void(Json&& params)>;  // the params are the handler's to keep

  struct OpenDocument {
    std::unique_ptr<Document> doc;
    std::unique_ptr<boost::asio::steady_timer> debounce;
    std::shared_ptr<const analysis::DocumentAnalysis> analysis;
    // The freshness key: a new generation for every input that changes (an edit, the settings,
    // a project file on disk). A result is stored only for the generation it was computed for.
    std::uint64_t generation = 0;
    std::uint64_t analysisGeneration = 0;  // generation `analysis` was computed for (0 = none)
    // Links (log <-> config) are made only between analyses of their documents' current
    // generations, and carry those generations (Related::revision).
    std::uint64_t inFlightGeneration = 0;  // generation being analysed now (0 = none)
    // Set when the generation being analysed is superseded: the analysis stops early.
    std::shared_ptr<std::atomic<bool>> inFlightCancel;
    bool published = false;  // diagnostics were published as a config or log: an Other result clears them
    std::vector<std::function<void(const OpenDocument*)>> waiters;
    bool sizeNoticeShown = false;  // window/showMessage about a partial analysis, once per open document
    // Why the text no longer matches the client's (empty while it does): a change could not be
    // applied. Until a full text or a reopen, edits are ignored and requests fail.
    std::string outOfSync;
  };

  // What a document feature gets once the preamble has run: the document with the analysis
  // of its current generation, and the conversion to the session's positions.
  struct FeatureContext {
    const OpenDocument& od;
    const Conversion& convert;
  };
  template <typename Params>
  using Feature = Json (Server::*)(const FeatureContext&, const Params&) const;
  enum class Positions { None, InParams };

  // Typed dispatch (server_bindings.cpp): every method dsls serves, bound once.
  void bindHandlers();
  template <typename Params>
  void bind(std::string method, void (Server::*handler)(const Params&, Reply));
  template <typename Params>
  void bindNotification(std::string method, void (Server::*handler)(const Params&));
  // For a handler that takes its params by value and keeps parts of them (a document's text,
  // moved out of the message).
  template <typename Params>
  void bindNotification(std::string method, void (Server::*handler)(Params));
  // Binds a document feature: parses its params, waits for the document's analysis, answers
  // `empty` for a document without one, and answers ContentModified when a request with
  // positions outlives the text it was made for.
  template <typename Params>
  void bindFeature(std::string method, Feature<Params> feature, Json empty, Positions positions);
  Conversion conversionFor(const OpenDocument& od) const;

  // Transport callbacks (any thread) -> strand.
  void onMessage(std::string body);
  void onClose(std::string reason);

  void dispatch(protocol::Incoming& msg);
  void dispatchRequest(const protocol::Incoming& msg);
  void dispatchNotification(protocol::Incoming& msg);
  void onResponse(const protocol::Incoming& msg);
  void send(const Json& message);
  void notify(std::string_view method, Json params);
  void showWarning(const std::string& message);  // window/showMessage, type Warning
  void request(std::string_view method, Json params, std::function<void(const Json& result, const Json& error)> done);
  void finish(int code);
  void answerShutdownWhenIdle();

  // Lifecycle (server_lifecycle.cpp)
  void onInitialize(const Json& params, Reply reply);
  void onInitialized(const Json& params);
  void onShutdown(const Json& params, Reply reply);
  void onExit(const Json& params);
  void onCancelRequest(const Json& params);
  void onDidChangeConfiguration(const Json& params);
  void onDidChangeWatchedFiles(const Json& params);
  void registerForConfigurationChanges();
  void pullConfiguration();
  void applyClientSettings(const Json& section);
  // Re-reads the workspace's version pins and re-analyses every document.
  void inputsChanged();
  void watchProjectFiles();
  Json capabilities() const;

  // Documents (server_documents.cpp)
  void onDidOpen(protocol::DidOpenParams params);
  void onDidChangeMessage(Json&& raw);  // a malformed change puts its document out of sync
  void onDidChange(protocol::DidChangeParams params);
  void markOutOfSync(OpenDocument& od, std::string why);
  static std::string outOfSyncMessage(const OpenDocument& od);
  void onDidSave(const protocol::DocumentParams& params);
  void onDidClose(const protocol::DocumentParams& params);
  // Gives the document a new generation: whatever was computed before is stale.
  void invalidate(OpenDocument& od);
  void scheduleAnalysis(OpenDocument& od, bool immediately);
  void startAnalysis(const std::string& uri);
  void analysisDone(const std::string& uri, std::uint64_t generation,
                    std::shared_ptr<const analysis::DocumentAnalysis> result);
  // Runs `fn` with the document's analysis for its current revision (at once, or when ready).
  // `positioned` is the reply of a request whose params hold positions: when the document
  // changes before its analysis is ready, those positions no longer point where the client
  // meant, so that request is answered with ContentModified instead of running `fn`.
  void withAnalysis(const std::string& uri, std::function<void(const OpenDocument*)> fn,
                    std::optional<Reply> positioned = std::nullopt);
  // Hands memory freed by closed documents back to the system shortly after the last close.
  void releaseMemorySoon();
  void publishDiagnostics(const OpenDocument& od);
  Json diagnosticsJson(const OpenDocument& od) const;
  // The document's findings plus related information from linked open documents (log <-> config).
  std::vector<analysis::Finding> linkedFindings(const OpenDocument& od) const;
  // A document whose analysis is current and is a config or a log: others may link into it.
  static bool linkable(const OpenDocument& od);
  // Republishes the documents that link, or linked, into `changed`: the logs when it is or was a
  // config (`config`), the configs when it is or was a log (`log`).
  void republishLinked(const OpenDocument& changed, bool config, bool log);
  // The links into `analysis`, a config or log that is gone, disappear from the others.
  void dropLinks(std::shared_ptr<const analysis::DocumentAnalysis> analysis);
  OpenDocument* find(const std::string& uri);

  // Features (server_features.cpp), run by bindFeature's preamble.
  Json documentDiagnostic(const FeatureContext&, const protocol::DocumentDiagnosticParams&) const;
  Json hover(const FeatureContext&, const protocol::PositionParams&) const;
  Json codeActions(const FeatureContext&, const protocol::CodeActionParams&) const;
  Json completion(const FeatureContext&, const protocol::PositionParams&) const;
  Json inlayHints(const FeatureContext&, const protocol::RangeParams&) const;
  Json documentSymbols(const FeatureContext&, const protocol::DocumentParams&) const;
  Json documentLinks(const FeatureContext&, const protocol::DocumentParams&) const;
  void onExecuteCommand(const protocol::ExecuteCommandParams& params, Reply reply);
  void diagnoseText(std::string text, std::optional<Json> workDoneToken, Reply reply);
  void diagnoseFolder(const std::string& uri, std::optional<Json> workDoneToken, Reply reply);  // server_folder.cpp

  // Long jobs on the background lane (server_jobs.cpp): cancellable by $/cancelRequest and,
  // where the client shows work-done progress, by its cancel button.
  // `share` is how much of the job is done (0..1); `message` says what it is doing.
  using JobProgress = std::function<void(double share, const std::string& message)>;
  using JobWork = std::function<Json(const analysis::Cancellation&, const JobProgress&)>;
  struct WorkDone;
  void runBackgroundJob(std::string title, std::optional<Json> workDoneToken, Reply reply, JobWork work);
  std::shared_ptr<WorkDone> beginWorkDone(const std::string& title, std::optional<Json> token, const Reply& reply);
  void reportWorkDone(WorkDone& progress, int percentage, const std::string& message);
  void endWorkDone(WorkDone& progress, const std::string& message);
  void onWorkDoneProgressCancel(const Json& params);
  void applyEdit(const Json& edit, Reply reply);

  Transport& transport_;
  Logger& log_;
  ServerOptions options_;
  boost::asio::io_context io_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  Scheduler scheduler_;
  boost::asio::steady_timer trimTimer_{io_};

  enum class Phase { Uninitialized, Initialized, ShuttingDown } phase_ = Phase::Uninitialized;
  bool exiting_ = false;
  int exitCode_ = 1;
  protocol::ClientCapabilities caps_;
  workspace::SettingValues initOptions_;   // from initializationOptions, as sent
  std::vector<std::string> initProblems_;  // wrong values in initializationOptions, shown after initialized
  std::set<std::string> projectErrorsShown_;  // [tool.dsls] errors already shown with window/showMessage
  workspace::SettingValues initSettings_;  // initOptions_ (the pins are read per document, nearest first)
  workspace::SettingValues settings_;      // effective: initSettings_ overlaid by workspace/configuration
  Json clientSettings_;              // the last `dsls` settings section the client sent
  std::uint64_t nextGeneration_ = 1;
  std::uint64_t linkEpoch_ = 0;      // bumps when a config or log analysis changes (pull result ids)
  std::vector<std::string> workspaceRoots_;
  std::map<std::string, OpenDocument> documents_;
  std::unordered_map<std::string, std::weak_ptr<ReplyState>> pending_;  // by serialised id
  std::map<long long, std::function<void(const Json&, const Json&)>> outgoing_;
  std::optional<Reply> shutdownReply_;  // held until earlier requests are answered
  long long nextOutgoingId_ = 1;
  std::map<std::string, std::shared_ptr<WorkDone>> workDone_;  // shown progress, by serialised token
  long long nextWorkDoneToken_ = 1;

  std::unordered_map<std::string, RequestHandler> requests_;
  std::unordered_map<std::string, NotificationHandler> notifications_;
};

}  // namespace dsls::lsp

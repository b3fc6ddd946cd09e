// initialize / shutdown / exit, settings, and the capabilities dsls announces.
#include "lsp/server.h"
#include "lsp/settings.h"
#include "lsp/to_lsp.h"
#include "protocol/uri.h"
#include "workspace/workspace_versions.h"

namespace dsls::lsp {

using protocol::ErrorCode;
using protocol::Json;

namespace {

// The versions found in the workspace's pins and installs, in the log.
workspace::VersionNote logVersions(Logger& log) {
  return [&log](const std::string& line) { log.log(LogLevel::Info, line); };
}

}  // namespace

void Server::onInitialize(const Json& params, Reply reply) {
  caps_ = protocol::parseClientCapabilities(params);
  std::vector<std::string> problems;
  if (params.is_object() && params.contains("initializationOptions")) {
    const Json& options = params["initializationOptions"];
    // Flat keys, or nested under "dsls" as some clients send their settings.
    mergeSettings(options.is_object() && options.contains("dsls") ? options["dsls"] : options, initOptions_, problems);
  }
  for (const auto& p : problems) log_.warn("initializationOptions: {}", p);
  initProblems_ = problems;

  // Versions not given by the client come from the workspace's pins, read-only.
  std::vector<std::string> roots;
  if (params.is_object()) {
    if (auto folders = params.find("workspaceFolders"); folders != params.end() && folders->is_array())
      for (const auto& f : *folders)
        if (f.is_object() && f.contains("uri") && f["uri"].is_string())
          if (auto path = protocol::uriToPath(f["uri"].get<std::string>())) roots.push_back(*path);
    if (roots.empty())
      if (auto root = params.find("rootUri"); root != params.end() && root->is_string())
        if (auto path = protocol::uriToPath(root->get<std::string>())) roots.push_back(*path);
  }
  workspaceRoots_ = roots;
  initSettings_ = initOptions_;
  // Pins are looked up per document (the nearest wins); the workspace's are only logged here.
  analysis::Settings pinned = initOptions_.settings;
  workspace::detectWorkspaceVersions(roots, pinned, logVersions(log_));
  settings_ = initSettings_;

  phase_ = Phase::Initialized;
  log_.setMirror([this](LogLevel level, const std::string& message) {
    boost::asio::post(strand_, [this, level, message] {
      if (!exiting_ && phase_ != Phase::Uninitialized)
        notify("window/logMessage", {{"type", level == LogLevel::Error ? 1 : 2}, {"message", message}});
    });
  });
  log_.info("initialized (position encoding {}, {} diagnostics)", protocol::encodingName(caps_.encoding),
            caps_.pullDiagnostics ? "pull" : "push");
  reply({{"capabilities", capabilities()}, {"serverInfo", {{"name", "dsls"}, {"version", DSLS_VERSION}}}});
}

Json Server::capabilities() const {
  Json caps{
      {"positionEncoding", protocol::encodingName(caps_.encoding)},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"hoverProvider", true},
      {"codeActionProvider",
       {{"codeActionKinds", {"quickfix", "source.fixAll", "source.fixAll.dsls"}}, {"resolveProvider", false}}},
      {"completionProvider", {{"triggerCharacters", {"\"", ":"}}, {"resolveProvider", false}}},
      {"inlayHintProvider", true},
      {"documentSymbolProvider", true},
      {"documentLinkProvider", {{"resolveProvider", false}}},
      {"executeCommandProvider", {{"commands", {"dsls.diagnoseText", "dsls.diagnoseFolder", kApplyEditCommand}}}},
      {"workspace", {{"workspaceFolders", {{"supported", true}, {"changeNotifications", false}}}}},
  };
  if (caps_.pullDiagnostics)
    caps["diagnosticProvider"] = {{"identifier", "dsls"}, {"interFileDependencies", true}, {"workspaceDiagnostics", false}};
  return caps;
}

void Server::onInitialized(const Json&) {
  // Sent once the client is ready: a wrong setting is told to the user, not only to the log.
  for (const auto& p : initProblems_) showWarning(p);
  initProblems_.clear();
  if (caps_.workspaceConfiguration) pullConfiguration();
  if (caps_.didChangeConfigurationDynamic) registerForConfigurationChanges();
  if (caps_.didChangeWatchedFilesDynamic) watchProjectFiles();
}

void Server::showWarning(const std::string& message) {
  notify("window/showMessage", {{"type", 2}, {"message", "dsls settings: " + message}});
}

void Server::registerForConfigurationChanges() {
  // Clients that register dynamically send didChangeConfiguration only after this.
  Json registration{{"id", "dsls.configuration"}, {"method", "workspace/didChangeConfiguration"},
                    {"registerOptions", {{"section", "dsls"}}}};
  request("client/registerCapability", {{"registrations", Json::array({registration})}}, [](const Json&, const Json&) {});
}

void Server::watchProjectFiles() {
  Json watchers = Json::array();
  for (const auto& glob : workspace::workspaceVersionFileGlobs()) watchers.push_back({{"globPattern", glob}});
  Json registration{{"id", "dsls.projectFiles"},
                    {"method", "workspace/didChangeWatchedFiles"},
                    {"registerOptions", {{"watchers", watchers}}}};
  request("client/registerCapability", {{"registrations", Json::array({registration})}},
          [this](const Json&, const Json& error) {
            if (!error.is_null()) log_.warn("the client refused to watch the project's pin files: {}", error.dump());
          });
}

void Server::onDidChangeWatchedFiles(const Json& params) {
  log_.info("project files changed ({} events): re-reading version pins", params.value("changes", Json::array()).size());
  analysis::Settings pinned = initOptions_.settings;
  workspace::detectWorkspaceVersions(workspaceRoots_, pinned, logVersions(log_));
  applyClientSettings(clientSettings_);
}

void Server::onShutdown(const Json&, Reply reply) {
  phase_ = Phase::ShuttingDown;
  shutdownReply_ = std::move(reply);
  answerShutdownWhenIdle();
}

void Server::onExit(const Json&) { finish(phase_ == Phase::ShuttingDown ? 0 : 1); }

void Server::onDidChangeConfiguration(const Json& params) {
  const Json settings = params.is_object() ? params.value("settings", Json()) : Json();
  if (settings.is_object() && settings.contains("dsls") && settings["dsls"].is_object()) {
    applyClientSettings(settings["dsls"]);
  } else if (caps_.workspaceConfiguration) {
    pullConfiguration();
  }
}

void Server::pullConfiguration() {
  request("workspace/configuration", {{"items", Json::array({{{"section", "dsls"}}})}},
          [this](const Json& result, const Json& error) {
            if (!error.is_null() || !result.is_array() || result.empty()) return;
            applyClientSettings(result[0]);
          });
}

void Server::applyClientSettings(const Json& section) {
  workspace::SettingValues merged = initSettings_;
  if (section.is_object()) {
    std::vector<std::string> problems;
    mergeSettings(section, merged, problems);
    for (const auto& p : problems) {
      log_.warn("settings: {}", p);
      showWarning(p);
    }
    clientSettings_ = section;
  }
  settings_ = merged;
  inputsChanged();
}

void Server::inputsChanged() {
  for (auto& [uri, od] : documents_) {
    invalidate(od);
    scheduleAnalysis(od, true);
  }
  if (caps_.pullDiagnostics && caps_.diagnosticRefresh)
    request("workspace/diagnostic/refresh", nullptr, [](const Json&, const Json&) {});
  if (caps_.inlayHintRefresh) request("workspace/inlayHint/refresh", nullptr, [](const Json&, const Json&) {});
}

}  // namespace dsls::lsp

// The command dsls.diagnoseFolder: a folder URI in; the per-rank logs found there analysed as
// one job each (workspace/run_folder_reader.h), on the pool; the jobs' reports out.
#include "analysis/facade/log_job.h"
#include "lsp/server.h"
#include "protocol/uri.h"
#include "workspace/project_settings.h"
#include "workspace/run_folder_reader.h"

#include <boost/asio/post.hpp>

namespace dsls::lsp {

using protocol::ErrorCode;
using protocol::Json;
namespace {

// {"folder", "jobs": [job JSON + "markdown"], "errors": [{"path", "message"}], "message"}.
Json diagnoseFolderOnDisk(const std::string& folder, const analysis::Settings& base,
                          const std::vector<std::string>& roots) {
  std::string error;
  std::vector<std::pair<std::string, std::string>> notRead;
  std::vector<analysis::RunFolderJob> jobs = workspace::findJobs(folder, error, notRead);
  if (!error.empty()) throw std::invalid_argument(error);
  const analysis::Settings settings = workspace::settingsForFile(folder + "/run.log", base, roots);
  Json out{{"folder", folder}, {"jobs", Json::array()}, {"errors", Json::array()}};
  for (const auto& [path, message] : notRead) out["errors"].push_back({{"path", path}, {"message", message}});
  for (const auto& job : jobs) {
    workspace::JobRead read = workspace::readJob(job, settings);
    for (const auto& [path, message] : read.errors) out["errors"].push_back({{"path", path}, {"message", message}});
    if (!read.job) continue;
    Json j = analysis::jobJson(*read.job);
    j["markdown"] = analysis::jobMarkdown(*read.job);
    out["jobs"].push_back(std::move(j));
  }
  out["message"] = jobs.empty() ? "No per-rank logs in " + folder +
                                      ": neither DeepSpeed's <YYYYmmddHHMMSS>_rank<N>.log files nor a torchrun "
                                      "log folder (attempt_<k>/<local rank>/stdout.log, stderr.log, error.json)."
                                : std::to_string(jobs.size()) + (jobs.size() == 1 ? " job" : " jobs") + " in " + folder + ".";
  return out;
}

}  // namespace

void Server::diagnoseFolder(const std::string& uri, Reply reply) {
  auto folder = protocol::uriToPath(uri);
  if (!folder) return reply.error(ErrorCode::InvalidParams, "not a file URI: " + uri);
  boost::asio::post(pool_, [this, reply = std::move(reply), folder = *folder, base = settings_,
                            roots = workspaceRoots_]() mutable {
    Json result;
    std::string failure;
    bool badFolder = false;
    try {
      result = diagnoseFolderOnDisk(folder, base, roots);
    } catch (const std::invalid_argument& e) {
      failure = e.what();
      badFolder = true;
    } catch (const std::exception& e) {
      failure = e.what();
    }
    boost::asio::post(strand_, [this, reply = std::move(reply), result = std::move(result), failure, badFolder] {
      if (exiting_ || reply.done()) return;
      if (badFolder) return reply.error(ErrorCode::InvalidParams, failure);
      if (!failure.empty()) return reply.error(ErrorCode::InternalError, "diagnosis failed: " + failure);
      reply(result);
    });
  });
}

}  // namespace dsls::lsp

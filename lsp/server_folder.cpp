// The command dsls.diagnoseFolder: a folder URI in; the per-rank logs found there analysed as
// one job each (workspace/run_folder_reader.h), on the background lane; the jobs' reports out.
#include "analysis/facade/log_job.h"
#include "lsp/server.h"
#include "protocol/uri.h"
#include "workspace/project_settings.h"
#include "workspace/run_folder_reader.h"

namespace dsls::lsp {

using protocol::ErrorCode;
using protocol::Json;
namespace {

// {"folder", "jobs": [job JSON + "markdown"], "errors": [{"path", "message"}], "message"}.
Json diagnoseFolderOnDisk(const std::string& folder, const workspace::SettingValues& base,
                          const std::vector<std::string>& roots, const analysis::Cancellation& cancel,
                          const std::function<void(double, const std::string&)>& progress) {
  std::string error;
  std::vector<std::pair<std::string, std::string>> notRead;
  std::vector<analysis::RunFolderJob> jobs = workspace::findJobs(folder, error, notRead);
  if (!error.empty()) throw std::invalid_argument(error);
  const analysis::Settings settings = workspace::settingsForFile(folder + "/run.log", base, roots);
  Json out{{"folder", folder}, {"jobs", Json::array()}, {"errors", Json::array()}};
  for (const auto& [path, message] : notRead) out["errors"].push_back({{"path", path}, {"message", message}});
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const auto& job = jobs[i];
    const std::string doing = "job " + std::to_string(i + 1) + " of " + std::to_string(jobs.size()) + ": " + job.name;
    auto jobProgress = [&](double share) { progress((static_cast<double>(i) + share) / static_cast<double>(jobs.size()), doing); };
    workspace::JobRead read = workspace::readJob(job, settings, cancel, jobProgress);
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

void Server::diagnoseFolder(const std::string& uri, std::optional<Json> workDoneToken, Reply reply) {
  auto folder = protocol::uriToPath(uri);
  if (!folder) return reply.error(ErrorCode::InvalidParams, "not a file URI: " + uri);
  runBackgroundJob("dsls.diagnoseFolder", std::move(workDoneToken), std::move(reply),
                   [folder = *folder, base = settings_, roots = workspaceRoots_](
                       const analysis::Cancellation& cancel, const JobProgress& progress) {
                     return diagnoseFolderOnDisk(folder, base, roots, cancel, progress);
                   });
}

}  // namespace dsls::lsp

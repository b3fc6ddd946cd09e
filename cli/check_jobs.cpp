#include "cli/check_jobs.h"

#include "analysis/facade/log_document.h"
#include "workspace/run_folder_reader.h"

#include <set>

namespace dsls::cli {

std::vector<analysis::RunFolderJob> takeJobs(InputList& inputs) {
  std::vector<std::string> found, named;
  for (const InputFile& f : inputs.files)
    if (!f.isStdin) (f.named ? named : found).push_back(f.path);
  std::vector<analysis::RunFolderJob> jobs = analysis::recogniseJobs(found);
  // Rank files named one by one (a shell glob such as logs/*_rank*.log) are one job when they
  // hold two ranks or more; a single one named alone is checked as a log of its own.
  for (auto& job : analysis::recogniseJobs(named))
    if (job.ranks.size() >= 2) jobs.push_back(std::move(job));
  std::set<std::string> taken;
  for (const auto& job : jobs)
    for (const auto& f : job.files) taken.insert(f.path);
  std::erase_if(inputs.files, [&](const InputFile& f) { return taken.count(f.path) > 0; });
  return jobs;
}

JobOutcome checkJob(const analysis::RunFolderJob& job, CheckContext& context) {
  const CheckOptions& options = context.options;
  JobOutcome out;
  const std::string settingsPath = job.files.front().path;
  workspace::ResolvedSettings resolved =
      workspace::resolveSettings(settingsPath, options.base, options.rules, !options.isolated);
  showSettingsProblems(resolved, context);
  if (!resolved.errors.empty()) {
    out.errors.emplace_back(job.root.empty() ? "." : job.root,
                            "not checked: " + resolved.projectFile + " [tool.dsls] has invalid values");
    return out;
  }

  workspace::JobRead read = workspace::readJob(job, resolved.settings);
  out.errors = std::move(read.errors);
  if (!read.job) return out;
  std::shared_ptr<analysis::JobReport> report = std::move(read.job);
  const std::vector<std::string>& paths = report->paths;
  for (std::size_t i = 0; i < job.files.size(); ++i) {
    FileReport r;
    r.path = paths[i];
    r.kind = analysis::DocumentKind::Log;
    r.findings = analysis::jobFileFindings(*report, i);
    selectLogFindings(r.findings, resolved, options);
    std::string error;
    if (!locateLogFindings(r, paths[i], error)) out.errors.emplace_back(paths[i], error);
    out.files.push_back(std::move(r));
  }
  out.job = std::move(report);
  return out;
}

}  // namespace dsls::cli

#include "cli/check_jobs.h"

#include "analysis/facade/log_document.h"
#include "cli/job_reader.h"

#include <algorithm>
#include <set>
#include <thread>

namespace dsls::cli {
namespace {

// Reader threads: enough to keep the disk and the line splitting ahead of the merge, few enough
// for a shared machine.
std::size_t readerThreads(std::size_t files) {
  const std::size_t cores = std::max<unsigned>(std::thread::hardware_concurrency(), 1);
  return std::clamp<std::size_t>(std::min(files, cores), 1, 4);
}

}  // namespace

std::vector<analysis::RunFolderJob> takeJobs(InputList& inputs) {
  std::vector<std::string> found;
  for (const InputFile& f : inputs.files)
    if (!f.named && !f.isStdin) found.push_back(f.path);
  std::vector<analysis::RunFolderJob> jobs = analysis::recogniseJobs(found);
  std::set<std::string> taken;
  for (const auto& job : jobs)
    for (const auto& f : job.files) taken.insert(f.path);
  std::erase_if(inputs.files, [&](const InputFile& f) { return !f.named && taken.count(f.path); });
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

  std::vector<std::string> paths;
  for (const auto& f : job.files) paths.push_back(f.path);
  ReaderPool pool(readerThreads(job.files.size()));
  std::vector<std::unique_ptr<FileBatchSource>> sources;
  std::vector<analysis::LineBatchSource*> views;
  for (const auto& f : job.files) {
    sources.push_back(std::make_unique<FileBatchSource>(pool, f.path, f.role == analysis::RankFileRole::ErrorJson));
    views.push_back(sources.back().get());
  }
  auto report = std::make_shared<analysis::JobReport>(analysis::analyzeJob(job, paths, views, resolved.settings));
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (auto error = sources[i]->error(); !error.empty()) out.errors.emplace_back(paths[i], error);
    report->recordedErrors.push_back(sources[i]->recorded());
  }
  sources.clear();
  if (!out.errors.empty()) return out;

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

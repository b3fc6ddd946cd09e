#include "cli/check_jobs.h"

#include "analysis/facade/log_document.h"
#include "workspace/run_folder_reader.h"

#include <cstdio>
#include <filesystem>
#include <set>
#include <unistd.h>

namespace dsls::cli {
namespace {

// A run folder this large takes a minute or more to read: say how far it got.
constexpr std::uintmax_t kProgressBytes = std::uintmax_t{256} << 20;

// "dsls: reading ROOT: 42%" rewritten in place on stderr, for a large job read at a terminal
// (never in pipes or CI logs); an empty function otherwise.
analysis::JobProgress progressLine(const analysis::RunFolderJob& job, const CheckOptions& options, bool& shown) {
  if (!options.progress || ::isatty(STDERR_FILENO) != 1) return {};
  std::uintmax_t bytes = 0;
  for (const auto& f : job.files) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(f.path, ec);
    if (!ec) bytes += size;
  }
  if (bytes < kProgressBytes) return {};
  return [&shown, root = job.root.empty() ? std::string(".") : job.root, last = -1](double share) mutable {
    const int percentage = static_cast<int>(share * 100.0);
    if (percentage == last) return;
    last = percentage;
    shown = true;
    std::fprintf(stderr, "\rdsls: reading %s: %d%%", root.c_str(), percentage);
    std::fflush(stderr);
  };
}

}  // namespace

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
      workspace::resolveSettings(settingsPath, options.given, !options.isolated);
  showSettingsProblems(resolved, context);
  if (!resolved.errors.empty()) {
    out.errors.emplace_back(job.root.empty() ? "." : job.root,
                            "not checked: " + resolved.projectFile + " [tool.dsls] has invalid values");
    return out;
  }

  bool progressShown = false;
  workspace::JobRead read =
      workspace::readJob(job, resolved.settings, {}, progressLine(job, options, progressShown));
  if (progressShown) std::fputs("\r\033[K", stderr);  // the line goes before the report is printed
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

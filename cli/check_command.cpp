// `dsls check`: walks the inputs, checks each file and hands the results to the chosen reporter.
#include "cli/check_command.h"

#include "cli/check_file.h"
#include "cli/check_jobs.h"
#include "cli/file_source.h"
#include "cli/input_files.h"
#include "cli/reporter.h"

#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace dsls::cli {
namespace {

bool useColor(ColorMode mode) {
  if (mode != ColorMode::Auto) return mode == ColorMode::Always;
  const char* noColor = std::getenv("NO_COLOR");
  if (noColor && *noColor) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string(term) == "dumb") return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

std::unique_ptr<Reporter> makeReporter(const CheckOptions& o) {
  switch (o.format) {
    case OutputFormat::Json: return makeJsonReporter(std::cout, o.logReport);
    case OutputFormat::Sarif: return makeSarifReporter(std::cout, o.ruleDocsUrl);
    case OutputFormat::Github: return makeGithubReporter(std::cout);
    case OutputFormat::Text: break;
  }
  // Notes below warning are counted, not shown, unless --min-severity or --fail-on asks for them.
  const bool brief = !o.given.outputSeverity && leastShownByDefault(o) == analysis::Severity::Warning;
  return makeTextReporter(std::cout, useColor(o.color), o.logReport, brief);
}

// --diff prints the fixes and nothing else; this reporter only keeps count.
class SilentReporter : public Reporter {
 public:
  void file(const FileReport&) override {}
  void finish(const Summary&) override {}
};

void count(const FileReport& r, Summary& s) {
  ++s.filesChecked;
  s.fixed += r.fixed;
  if (r.written) ++s.filesWritten;
  for (const auto& f : r.findings) {
    ++s.findings;
    ++s.bySeverity[static_cast<std::size_t>(f.severity) - 1];
    if (hasSafeFix(f)) ++s.fixable;
    if (static_cast<int>(f.severity) <= static_cast<int>(s.failOn)) s.failed = true;
  }
}

}  // namespace

int runCheck(const std::vector<std::string>& args) {
  auto parsed = parseCheckOptions(args);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::fprintf(stderr, "dsls check: %s (see dsls check --help)\n", error->c_str());
    return 2;
  }
  CheckOptions& options = std::get<CheckOptions>(parsed);
  for (const auto& p : options.paths) {
    std::error_code ec;
    if (p != "-" && std::filesystem::is_directory(p, ec)) options.folderGiven = true;
  }
  if (options.help) {
    std::fputs(checkUsage().c_str(), stdout);
    return 0;
  }
  std::ios::sync_with_stdio(false);

  InputList inputs = collectInputs(options.paths, options.include, options.exclude, options.respectGitignore);
  std::unique_ptr<Reporter> reporter = options.diff ? std::make_unique<SilentReporter>() : makeReporter(options);
  Summary summary;
  summary.failOn = options.failOn;
  summary.gitignored = inputs.gitignored;
  std::size_t diffs = 0;
  for (const std::string& e : inputs.errors) {
    std::fprintf(stderr, "dsls: %s\n", e.c_str());
    auto colon = e.find(": ");
    reporter->error({e.substr(0, colon), colon == std::string::npos ? e : e.substr(colon + 2)});
    ++summary.errors;
  }

  CheckContext context{options, {}};
  for (const analysis::RunFolderJob& job : takeJobs(inputs)) {
    JobOutcome outcome = checkJob(job, context);
    for (const auto& [path, message] : outcome.errors) {
      std::fprintf(stderr, "dsls: %s: %s\n", path.c_str(), message.c_str());
      reporter->error({path, message});
      ++summary.errors;
    }
    if (!outcome.job) continue;
    for (const FileReport& r : outcome.files) {
      count(r, summary);
      reporter->file(r);
    }
    reporter->job(*outcome.job);
  }
  for (const InputFile& input : inputs.files) {
    SpooledStdin spooled;
    std::string readPath = input.path;
    if (input.isStdin) {
      std::string error;
      if (!spooled.spool(error)) {
        std::fprintf(stderr, "dsls: %s\n", error.c_str());
        reporter->error({"-", error});
        ++summary.errors;
        continue;
      }
      readPath = spooled.path();
    }
    InputFile shownInput = input;
    if (input.isStdin && !options.stdinFilename.empty()) shownInput.path = options.stdinFilename;
    const std::string& shown = shownInput.path;
    FileOutcome outcome = checkFile(shownInput, readPath, context);
    switch (outcome.status) {
      case FileStatus::Ignored: break;
      case FileStatus::Skipped:
        std::fprintf(stderr, "dsls: %s: skipped: %s\n", shown.c_str(), outcome.reason.c_str());
        reporter->skipped({shown, outcome.reason});
        ++summary.skipped;
        break;
      case FileStatus::Failed:
        std::fprintf(stderr, "dsls: %s: %s\n", shown.c_str(), outcome.reason.c_str());
        reporter->error({shown, outcome.reason});
        ++summary.errors;
        break;
      case FileStatus::Checked:
        count(outcome.report, summary);
        reporter->file(outcome.report);
        if (!outcome.diff.empty()) {
          std::cout << outcome.diff;
          ++diffs;
        }
        break;
    }
  }
  reporter->finish(summary);
  std::cout.flush();
  if (options.diff) {
    if (summary.fixed)
      std::fprintf(stderr, "dsls: --diff: %zu finding%s would be fixed in %zu file%s\n", summary.fixed,
                   summary.fixed == 1 ? "" : "s", diffs, diffs == 1 ? "" : "s");
    if (summary.errors) return 2;
    return diffs ? 1 : 0;
  }
  if (summary.errors) return 2;
  return summary.failed ? 1 : 0;
}

}  // namespace dsls::cli

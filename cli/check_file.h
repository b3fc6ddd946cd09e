// Checking one file for `dsls check`: detection, settings, analysis (streamed for logs),
// fixes, and positions of everything the reporters print.
#pragma once

#include "cli/check_model.h"
#include "cli/check_options.h"
#include "cli/input_files.h"
#include "cli/text_locator.h"

#include <set>
#include <string>
#include <vector>

namespace dsls::cli {

enum class FileStatus {
  Checked,
  Ignored,  // neither a ds_config nor a training log: left alone without a word
  Skipped,  // would be checked but cannot be (binary, too large): reported, not an error
  Failed,   // an I/O error
};

struct FileOutcome {
  FileStatus status = FileStatus::Ignored;
  std::string reason;  // for Skipped and Failed
  FileReport report;   // for Checked
  std::string diff;    // for --diff: the unified diff of the safe fixes
};

struct CheckContext {
  const CheckOptions& options;
  std::set<std::string> reportedProblems;  // pyproject problems already shown
};

// `readPath` is where the bytes are (the spooled file for standard input).
FileOutcome checkFile(const InputFile& input, const std::string& readPath, CheckContext& context);

// A log's findings as `dsls check` shows them: rule overrides, --select/--ignore, the least
// severity shown, in text order.
void selectLogFindings(std::vector<analysis::Finding>& findings, const workspace::ResolvedSettings& resolved,
                       const CheckOptions& options);
// Lines and columns of every offset `r.findings` mention, read from `readPath` in chunks.
// `lineStarts`: line starts known from the analysis pass, in file order (none: read from the start).
bool locateLogFindings(FileReport& r, const std::string& readPath, std::string& error,
                       const std::vector<TextLocator::LineStart>& lineStarts = {});
// Pyproject problems of `resolved`, each shown once on standard error.
void showSettingsProblems(const workspace::ResolvedSettings& resolved, CheckContext& context);

}  // namespace dsls::cli

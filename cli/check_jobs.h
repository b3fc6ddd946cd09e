// `dsls check DIR` on per-rank logs: the files found in folders that make up one job (see
// analysis/facade/run_folder.h) are taken out of the file-by-file check and analysed together,
// read in parallel; each file still gets the findings on its own lines.
#pragma once

#include "analysis/facade/log_job.h"
#include "cli/check_file.h"
#include "cli/check_model.h"
#include "cli/input_files.h"

#include <memory>
#include <string>
#include <vector>

namespace dsls::cli {

struct JobOutcome {
  std::shared_ptr<const analysis::JobReport> job;  // null when the job could not be read
  std::vector<FileReport> files;                   // the job's files with findings on their lines
  std::vector<std::pair<std::string, std::string>> errors;  // path, message
};

// The jobs among the files found in folders; their files are removed from `inputs`.
std::vector<analysis::RunFolderJob> takeJobs(InputList& inputs);

JobOutcome checkJob(const analysis::RunFolderJob& job, CheckContext& context);

}  // namespace dsls::cli

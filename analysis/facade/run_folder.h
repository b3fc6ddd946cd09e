// Which files of a folder are the per-rank logs of one training job, from their paths alone:
// DeepSpeed's launcher with `--enable_each_rank_log DIR` (`<YYYYmmddHHMMSS>_rank<N>.log`, the
// global rank in the name) and torchrun's `--log-dir` tree
// (`<run>/attempt_<k>/<local_rank>/{stdout.log,stderr.log,error.json}`). No I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::analysis {

enum class RunFolderLayout { EachRankLog, TorchrunLogDir };
std::string_view layoutName(RunFolderLayout layout);  // "deepspeed-each-rank-log", "torchrun-log-dir"

enum class RankFileRole { Log, Stdout, Stderr, ErrorJson };
std::string_view roleName(RankFileRole role);  // "log", "stdout", "stderr", "error.json"

struct RankFile {
  std::string path;  // as given
  RankFileRole role = RankFileRole::Log;
  int rank = 0;            // the global rank, or the local rank when `localRank`
  bool localRank = false;  // torchrun's folder names a local rank and no node index is known
  std::optional<int> node;  // the node's group rank, from a `node<N>` folder above the run
};

struct RunFolderJob {
  RunFolderLayout layout = RunFolderLayout::EachRankLog;
  std::string root;  // the folder that holds the job's files ("" for the current folder)
  std::string name;  // the launch timestamp, or the run folder and attempt
  std::vector<RankFile> files;  // by rank, then role (error.json last)
  std::vector<int> ranks;       // sorted, distinct
};

// The jobs among `paths` (files, '/'-separated); a path belongs to at most one job. A folder of
// unrelated logs, or a single rank file, is no job.
std::vector<RunFolderJob> recogniseJobs(const std::vector<std::string>& paths);

}  // namespace dsls::analysis

// One training job written to several files (one per rank, see run_folder.h) analysed as one
// log: the files' lines are merged in wall-clock order where they carry timestamps (by how far
// each file has been read otherwise), each line tagged with its file and the rank its path
// names, and fed to one log analyser, so the diagnosis (initiating failure, collateral ranks)
// is the single-log analyser's. The caller reads the files (in parallel if it likes) and hands
// over batches of lines; this side does no I/O and starts no threads.
#pragma once

#include "analysis/core/cancel.h"
#include "analysis/core/finding.h"
#include "analysis/core/settings.h"
#include "analysis/facade/run_folder.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace dsls::logs {
struct LogReport;
}

namespace dsls::analysis {

// Lines of one file in order, with their positions and own timestamps; the bytes are owned here.
struct LineBatch {
  struct Line {
    std::size_t start = 0, size = 0;  // in `bytes`
    std::size_t offset = 0;           // in the file
    std::size_t number = 0;           // 1-based line number in the file
    std::optional<double> time;       // the line's own timestamp, seconds in the year
  };
  std::string bytes;
  std::vector<Line> lines;
  std::string_view text(const Line& l) const { return std::string_view(bytes).substr(l.start, l.size); }
};

// Splits one file's bytes into line batches (the log analyser's line rules: "\n", "\r\n", lone
// "\r"), reading each line's timestamp. Feed chunks in file order; take() hands over the lines
// complete so far.
class LineBatcher {
 public:
  LineBatcher();
  ~LineBatcher();
  LineBatcher(const LineBatcher&) = delete;
  LineBatcher& operator=(const LineBatcher&) = delete;
  void feed(std::string_view chunk);
  void finish();
  LineBatch take();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The lines of a torchrun error.json (the child's exception as recorded by @record): its
// message, then its Python call stack; empty when the text is not such a file.
LineBatch errorJsonLines(std::string_view json);
// What a torchrun error.json records: the exception ("KeyError: 'text'") and when (its
// extraInfo.timestamp, seconds since the epoch).
struct RecordedError {
  std::string message;
  std::optional<long long> timestamp;
};
std::optional<RecordedError> recordedError(std::string_view json);

// Where the merge gets each file's next batch. `next` blocks until a batch is ready and returns
// false at the end of the file. `progress` is the share of the file handed over so far (0..1).
class LineBatchSource {
 public:
  virtual ~LineBatchSource() = default;
  virtual bool next(LineBatch& batch) = 0;
  virtual double progress() const = 0;
};

struct JobReport {
  RunFolderJob job;
  std::vector<std::string> paths;  // job.files' paths as the report names them
  std::shared_ptr<const logs::LogReport> report;
  std::vector<std::optional<RecordedError>> recordedErrors;  // by file: what each error.json records
};

// How a caller follows a long job: told the share of the job's bytes merged so far (0..1)
// every few thousand lines, and asked then whether to stop.
using JobProgress = std::function<void(double share)>;

// `sources[i]` reads `job.files[i]`; `paths[i]` is how the report names that file. A cancelled
// job throws Cancelled.
JobReport analyzeJob(const RunFolderJob& job, std::vector<std::string> paths,
                     const std::vector<LineBatchSource*>& sources, const Settings& settings,
                     const Cancellation& cancel = {}, const JobProgress& progress = {});

// The findings on the lines of the job's file `file` (related lines in other files name them).
std::vector<Finding> jobFileFindings(const JobReport& job, std::size_t file);

// The job as JSON (docs/logs/report-schema.md, "jobs"): layout, files with their ranks, report.
nlohmann::json jobJson(const JobReport& job);
// "<root>: one job of 4 rank files (deepspeed-each-rank-log), ranks 0–3.", and what error.json
// files record.
std::string jobDescription(const JobReport& job);
// The description and the report's verdict, one paragraph.
std::string jobSummary(const JobReport& job);
// The job for people: layout, files, ranks, then the report's Markdown.
std::string jobMarkdown(const JobReport& job);

}  // namespace dsls::analysis

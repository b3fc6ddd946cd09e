// Reading the files of one job in parallel for the merge (analysis/facade/log_job.h): a small
// pool of reader threads fills each file's queue of line batches ahead of the merge, a bounded
// number of batches per file, so 64 files of any size stay in a few tens of MB. Used by
// `dsls check DIR` and the server's dsls.diagnoseFolder.
#pragma once

#include "analysis/facade/log_job.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace dsls::workspace {

class ReaderPool;

// One file's batches. A reader thread refills the queue whenever the merge takes a batch.
class FileBatchSource : public analysis::LineBatchSource {
 public:
  FileBatchSource(ReaderPool& pool, std::string path, bool errorJson);
  ~FileBatchSource() override;
  bool next(analysis::LineBatch& batch) override;
  double progress() const override;
  // The read error, if reading stopped on one.
  std::string error() const;
  // For an error.json, once read: what it records.
  std::optional<analysis::RecordedError> recorded() const;

 private:
  friend class ReaderPool;
  void fill();  // on a reader thread: read the next chunk and queue its lines
  void schedule();

  ReaderPool& pool_;
  std::string path_;
  bool errorJson_;
  int fd_ = -1;
  std::uintmax_t size_ = 0;
  std::uintmax_t read_ = 0;          // bytes read by the reader
  std::uintmax_t handedOver_ = 0;    // bytes whose lines the merge has taken
  analysis::LineBatcher batcher_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::pair<analysis::LineBatch, std::uintmax_t>> queue_;  // batch, bytes read up to its end
  bool scheduled_ = false, atEnd_ = false, opened_ = false;
  std::string error_;
  std::optional<analysis::RecordedError> recorded_;
};

// Worker threads running file refills; tasks never block, so a few threads serve any number
// of files.
class ReaderPool {
 public:
  explicit ReaderPool(std::size_t threads);
  ~ReaderPool();
  ReaderPool(const ReaderPool&) = delete;
  ReaderPool& operator=(const ReaderPool&) = delete;
  void post(FileBatchSource* source);

 private:
  void run();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<FileBatchSource*> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// A job read and analysed: the report, or the files that could not be read.
struct JobRead {
  std::shared_ptr<analysis::JobReport> job;                 // null when a file could not be read
  std::vector<std::pair<std::string, std::string>> errors;  // path, message
};
// A cancelled read stops within a few thousand lines, its reader threads joined, and throws
// analysis::Cancelled.
JobRead readJob(const analysis::RunFolderJob& job, const analysis::Settings& settings,
                const analysis::Cancellation& cancel = {}, const analysis::JobProgress& progress = {});

// The jobs among the files under `folder` (walked without following symlinks; hidden, VCS and
// dependency folders skipped; at most `maxFiles` files). Paths are `folder` + "/" + relative.
// What the walk could not read (a broken link, a folder it could not list, the files past the
// limit) is in `notRead`: path, message; the jobs may then lack some rank files.
inline constexpr std::size_t kMaxFolderFiles = 100000;
std::vector<analysis::RunFolderJob> findJobs(const std::string& folder, std::string& error,
                                             std::vector<std::pair<std::string, std::string>>& notRead,
                                             std::size_t maxFiles = kMaxFolderFiles);

}  // namespace dsls::workspace

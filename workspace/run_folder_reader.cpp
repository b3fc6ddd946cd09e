#include "workspace/run_folder_reader.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <set>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dsls::workspace {
namespace {

constexpr std::size_t kChunkBytes = 128 << 10;
constexpr std::size_t kQueuedBatches = 2;
constexpr std::size_t kMaxErrorJsonBytes = 4 << 20;

}  // namespace

FileBatchSource::FileBatchSource(ReaderPool& pool, std::string path, bool errorJson)
    : pool_(pool), path_(std::move(path)), errorJson_(errorJson) {
  std::lock_guard lock(mutex_);
  schedule();
}

FileBatchSource::~FileBatchSource() {
  std::unique_lock lock(mutex_);
  // A refill still queued or running holds `this`: wait for it.
  ready_.wait(lock, [&] { return !scheduled_; });
  if (fd_ >= 0) ::close(fd_);
}

void FileBatchSource::schedule() {
  if (scheduled_ || atEnd_ || queue_.size() >= kQueuedBatches) return;
  scheduled_ = true;
  pool_.post(this);
}

void FileBatchSource::fill() {
  // Only this task touches the file and the batcher while `scheduled_` is set.
  analysis::LineBatch batch;
  bool end = false;
  std::string error;
  if (!opened_) {
    opened_ = true;
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd_ < 0 || ::fstat(fd_, &st) != 0) error = std::strerror(errno);
    else size_ = static_cast<std::uintmax_t>(st.st_size);
  }
  if (error.empty() && errorJson_) {
    std::string text;
    char buf[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = std::strerror(errno);
        break;
      }
      if (n == 0 || text.size() > kMaxErrorJsonBytes) break;
      text.append(buf, static_cast<std::size_t>(n));
    }
    read_ = size_;
    batch = analysis::errorJsonLines(text);
    auto recorded = analysis::recordedError(text);
    std::lock_guard lock(mutex_);
    recorded_ = std::move(recorded);
    end = true;
  } else if (error.empty()) {
    std::string chunk(kChunkBytes, '\0');
    ssize_t n;
    do n = ::read(fd_, chunk.data(), chunk.size());
    while (n < 0 && errno == EINTR);
    if (n < 0) {
      error = std::strerror(errno);
    } else if (n == 0) {
      batcher_.finish();
      end = true;
    } else {
      read_ += static_cast<std::uintmax_t>(n);
      batcher_.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)));
    }
    batch = batcher_.take();
  }
  std::lock_guard lock(mutex_);
  if (!error.empty()) {
    error_ = error;
    end = true;
  }
  if (!batch.lines.empty()) queue_.emplace_back(std::move(batch), read_);
  atEnd_ = end;
  scheduled_ = false;
  schedule();
  ready_.notify_all();
}

bool FileBatchSource::next(analysis::LineBatch& batch) {
  std::unique_lock lock(mutex_);
  ready_.wait(lock, [&] { return !queue_.empty() || (atEnd_ && !scheduled_); });
  if (queue_.empty()) return false;
  batch = std::move(queue_.front().first);
  handedOver_ = queue_.front().second;
  queue_.pop_front();
  schedule();
  return true;
}

double FileBatchSource::progress() const {
  std::lock_guard lock(mutex_);
  if (errorJson_) return 1.0;  // error.json is written when the process ends
  return size_ == 0 ? 0.0 : static_cast<double>(handedOver_) / static_cast<double>(size_);
}

std::optional<analysis::RecordedError> FileBatchSource::recorded() const {
  std::lock_guard lock(mutex_);
  return recorded_;
}

std::string FileBatchSource::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

ReaderPool::ReaderPool(std::size_t threads) {
  for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i) threads_.emplace_back([this] { run(); });
}

ReaderPool::~ReaderPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void ReaderPool::post(FileBatchSource* source) {
  {
    std::lock_guard lock(mutex_);
    tasks_.push_back(source);
  }
  wake_.notify_one();
}

void ReaderPool::run() {
  for (;;) {
    FileBatchSource* task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;
      task = tasks_.front();
      tasks_.pop_front();
    }
    task->fill();
  }
}

namespace {

// Reader threads: enough to keep the disk and the line splitting ahead of the merge, few enough
// for a shared machine.
std::size_t readerThreads(std::size_t files) {
  const std::size_t cores = std::max<unsigned>(std::thread::hardware_concurrency(), 1);
  return std::clamp<std::size_t>(std::min(files, cores), 1, 4);
}

bool skippedFolder(const std::string& name) {
  static const std::set<std::string> skipped = {"node_modules", "__pycache__", "site-packages", "venv"};
  return name.starts_with('.') || skipped.count(name) > 0;
}

}  // namespace

JobRead readJob(const analysis::RunFolderJob& job, const analysis::Settings& settings,
                const analysis::Cancellation& cancel, const analysis::JobProgress& progress) {
  JobRead out;
  std::vector<std::string> paths;
  for (const auto& f : job.files) paths.push_back(f.path);
  ReaderPool pool(readerThreads(job.files.size()));
  std::vector<std::unique_ptr<FileBatchSource>> sources;
  std::vector<analysis::LineBatchSource*> views;
  for (const auto& f : job.files) {
    sources.push_back(std::make_unique<FileBatchSource>(pool, f.path, f.role == analysis::RankFileRole::ErrorJson));
    views.push_back(sources.back().get());
  }
  auto report = std::make_shared<analysis::JobReport>(analysis::analyzeJob(job, paths, views, settings, cancel, progress));
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (auto error = sources[i]->error(); !error.empty()) out.errors.emplace_back(paths[i], error);
    report->recordedErrors.push_back(sources[i]->recorded());
  }
  if (out.errors.empty()) out.job = std::move(report);
  return out;
}

std::vector<analysis::RunFolderJob> findJobs(const std::string& folder, std::string& error,
                                             std::vector<std::pair<std::string, std::string>>& notRead,
                                             std::size_t maxFiles) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    error = "not a folder: " + folder;
    return {};
  }
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) {
    error = "cannot read " + folder + ": " + ec.message();
    return {};
  }
  for (; it != end; it.increment(ec)) {
    if (ec) {
      notRead.emplace_back(folder, "not read past " + (paths.empty() ? folder : paths.back()) + ": " + ec.message());
      break;
    }
    const fs::directory_entry& entry = *it;
    std::error_code typeError;
    if (entry.is_directory(typeError) && !entry.is_symlink(typeError)) {
      if (skippedFolder(entry.path().filename().string())) it.disable_recursion_pending();
      continue;
    }
    if (!entry.is_regular_file(typeError)) {
      if (typeError) notRead.emplace_back(entry.path().generic_string(), "not read: " + typeError.message());
      continue;
    }
    if (paths.size() == maxFiles) {
      notRead.emplace_back(folder, "not read past " + paths.back() + ": the walk stops at " +
                                       std::to_string(maxFiles) + " files");
      break;
    }
    paths.push_back(entry.path().generic_string());
  }
  std::sort(paths.begin(), paths.end());
  return analysis::recogniseJobs(paths);
}

}  // namespace dsls::workspace

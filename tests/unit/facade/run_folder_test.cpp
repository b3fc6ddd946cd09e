// Per-rank logs as one job: which paths make a job (and which near misses do not), and the
// merged analysis: the initiating rank by timestamps across files, findings at file and line,
// and a wall-clock timeline.
#include <doctest/doctest.h>

#include "analysis/facade/log_document.h"
#include "analysis/facade/log_job.h"
#include "analysis/facade/run_folder.h"
#include "analysis/logs/report/log_report.h"

#include <string>
#include <vector>
#include <nlohmann/json.hpp>

using namespace dsls;
using analysis::RunFolderLayout;

namespace {

std::vector<int> ranksOf(const analysis::RunFolderJob& job) { return job.ranks; }

// Hands over one file's text as batches of a few lines, as the reader threads do.
class TextSource : public analysis::LineBatchSource {
 public:
  explicit TextSource(std::string text) : text_(std::move(text)) {}
  bool next(analysis::LineBatch& batch) override {
    if (pos_ >= text_.size()) {
      if (finished_) return false;
      finished_ = true;
      batcher_.finish();
      batch = batcher_.take();
      return !batch.lines.empty();
    }
    const std::size_t n = std::min<std::size_t>(37, text_.size() - pos_);  // chunks cut lines
    batcher_.feed(std::string_view(text_).substr(pos_, n));
    pos_ += n;
    batch = batcher_.take();
    return true;
  }
  double progress() const override { return text_.empty() ? 1.0 : static_cast<double>(pos_) / static_cast<double>(text_.size()); }

 private:
  std::string text_;
  std::size_t pos_ = 0;
  bool finished_ = false;
  analysis::LineBatcher batcher_;
};

analysis::JobReport analyse(const analysis::RunFolderJob& job, const std::vector<std::string>& texts) {
  std::vector<std::unique_ptr<TextSource>> sources;
  std::vector<analysis::LineBatchSource*> views;
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    sources.push_back(std::make_unique<TextSource>(texts[i]));
    views.push_back(sources.back().get());
    paths.push_back(job.files[i].path);
  }
  return analysis::analyzeJob(job, paths, views, {});
}

const std::string kOom =
    "Traceback (most recent call last):\n"
    "  File \"/workspace/train.py\", line 198, in main\n"
    "    trainer.train()\n"
    "  File \"/opt/conda/lib/python3.10/site-packages/deepspeed/runtime/engine.py\", line 1976, in backward\n"
    "    self.optimizer.backward(loss, retain_graph=retain_graph)\n"
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 112.00 MiB. GPU 3 has a total capacity of "
    "39.39 GiB of which 14.00 MiB is free.\n";

const std::string kValueError =
    "Traceback (most recent call last):\n"
    "  File \"/workspace/train.py\", line 71, in main\n"
    "    batch = next(loader)\n"
    "  File \"/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py\", line 631, in __next__\n"
    "    data = self._next_data()\n"
    "ValueError: bad batch\n";

std::string timeout(int rank, const std::string& clock) {
  return "[E1206 " + clock + ".101000000 ProcessGroupNCCL.cpp:607] [Rank " + std::to_string(rank) +
         "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7753, OpType=_REDUCE_SCATTER_BASE, "
         "NumelIn=544997376, NumelOut=68124672, Timeout(ms)=1800000) ran for 1800061 milliseconds before timing out.\n";
}

std::string logger(const std::string& clock, const std::string& message) {
  return "[2024-12-06 " + clock + ",101] [INFO] [comm.py:652:init_distributed] " + message + "\n";
}

}  // namespace

TEST_CASE("DeepSpeed's --enable_each_rank_log files make one job, ranks from the names") {
  auto jobs = analysis::recogniseJobs({"logs/20241206140012_rank0.log", "logs/20241206140012_rank1.log",
                                       "logs/20241206140012_rank10.log", "logs/notes.txt"});
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].layout == RunFolderLayout::EachRankLog);
  CHECK(jobs[0].root == "logs");
  CHECK(jobs[0].name == "20241206140012");
  CHECK(ranksOf(jobs[0]) == std::vector<int>{0, 1, 10});
  CHECK(jobs[0].files.size() == 3);
  CHECK_FALSE(jobs[0].files[0].localRank);
}

TEST_CASE("near misses of the rank file name are no job") {
  CHECK(analysis::recogniseJobs({"a/train.log", "a/eval.log", "a/worker.log"}).empty());
  CHECK(analysis::recogniseJobs({"a/rank0.log", "a/rank1.log"}).empty());
  CHECK(analysis::recogniseJobs({"a/run_rank0.log", "a/run_rank1.log"}).empty());
  CHECK(analysis::recogniseJobs({"a/2024_rank0.log", "a/2024_rank1.log"}).empty());
  CHECK(analysis::recogniseJobs({"a/20241306140012_rank0.log", "a/20241306140012_rank1.log"}).empty());  // month 13
  CHECK(analysis::recogniseJobs({"a/20241206140012_rank0.txt", "a/20241206140012_rank1.txt"}).empty());
  CHECK(analysis::recogniseJobs({"a/20241206140012_rankX.log", "a/20241206140012_rank.log"}).empty());
  // One rank file alone is a log, not a job of several files.
  CHECK(analysis::recogniseJobs({"a/20241206140012_rank0.log"}).empty());
  // Files of one launch in two folders are two folders' files, not one job.
  CHECK(analysis::recogniseJobs({"a/20241206140012_rank0.log", "b/20241206140012_rank1.log"}).empty());
}

TEST_CASE("each node's launcher stamps its own files; a relaunch into the same folder is another job") {
  auto nodes = analysis::recogniseJobs({"d/20241206140012_rank0.log", "d/20241206140012_rank1.log",
                                        "d/20241206140014_rank2.log", "d/20241206140014_rank3.log"});
  REQUIRE(nodes.size() == 1);
  CHECK(ranksOf(nodes[0]) == std::vector<int>{0, 1, 2, 3});
  auto relaunch = analysis::recogniseJobs({"d/20241206140012_rank0.log", "d/20241206140012_rank1.log",
                                           "d/20241206150000_rank0.log", "d/20241206150000_rank1.log"});
  REQUIRE(relaunch.size() == 2);
  CHECK(relaunch[0].name == "20241206140012");
  CHECK(relaunch[1].name == "20241206150000");
}

TEST_CASE("torchrun's --log-dir tree: local ranks from the folders, error.json after the logs") {
  auto jobs = analysis::recogniseJobs({"t/run_x/attempt_0/1/stderr.log", "t/run_x/attempt_0/1/error.json",
                                       "t/run_x/attempt_0/1/stdout.log", "t/run_x/attempt_0/0/stdout.log",
                                       "t/run_x/attempt_0/0/stderr.log"});
  REQUIRE(jobs.size() == 1);
  const auto& job = jobs[0];
  CHECK(job.layout == RunFolderLayout::TorchrunLogDir);
  CHECK(job.root == "t/run_x");
  CHECK(job.name == "run_x/attempt_0");
  CHECK(ranksOf(job) == std::vector<int>{0, 1});
  REQUIRE(job.files.size() == 5);
  CHECK(job.files[0].localRank);
  CHECK(job.files[4].path == "t/run_x/attempt_0/1/error.json");
  CHECK(job.files[4].role == analysis::RankFileRole::ErrorJson);
  // Another attempt is another job; a folder that is not a number is none.
  CHECK(analysis::recogniseJobs({"t/r/attempt_0/0/stdout.log", "t/r/attempt_1/0/stdout.log"}).size() == 2);
  CHECK(analysis::recogniseJobs({"t/r/attempt_0/zero/stdout.log", "t/r/attempt/0/stdout.log",
                                 "t/r/attempt_0/0/output.log"})
            .empty());
}

TEST_CASE("torchrun trees under node folders give global ranks: group rank * local ranks + local rank") {
  // Each node's agent makes its run folder "<run id>_<8 random characters>".
  auto jobs = analysis::recogniseJobs({"n/node0/ab_1k2j3h4g/attempt_0/0/stderr.log",
                                       "n/node0/ab_1k2j3h4g/attempt_0/1/stderr.log",
                                       "n/node1/ab_x9y8z7w_/attempt_0/0/stderr.log",
                                       "n/node1/ab_x9y8z7w_/attempt_0/1/stderr.log"});
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].name == "n/node*/ab_*/attempt_0");
  CHECK(ranksOf(jobs[0]) == std::vector<int>{0, 1, 2, 3});
  CHECK_FALSE(jobs[0].files[3].localRank);
  CHECK(jobs[0].files[3].node == 1);
  // Two run folders without node folders: each node's own job, with local ranks.
  auto unknown = analysis::recogniseJobs({"n/ab_1/attempt_0/0/stderr.log", "n/ab_2/attempt_0/0/stderr.log"});
  REQUIRE(unknown.size() == 2);
  CHECK(unknown[0].files[0].localRank);
}

TEST_CASE("reruns into one torchrun --log-dir under node folders: the run id is part of the job") {
  // Two runs (run ids "a1" and "b2") of two nodes each: two jobs, not one of eight files.
  auto jobs = analysis::recogniseJobs(
      {"n/node0/a1_0q9w8e7r/attempt_0/0/stderr.log", "n/node0/a1_0q9w8e7r/attempt_0/1/stderr.log",
       "n/node1/a1_5t6y7u8i/attempt_0/0/stderr.log", "n/node1/a1_5t6y7u8i/attempt_0/1/stderr.log",
       "n/node0/b2_zx_cv_bn/attempt_0/0/stderr.log", "n/node0/b2_zx_cv_bn/attempt_0/1/stderr.log",
       "n/node1/b2_mmnnbbvv/attempt_0/0/stderr.log", "n/node1/b2_mmnnbbvv/attempt_0/1/stderr.log"});
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].name == "n/node*/a1_*/attempt_0");
  CHECK(jobs[1].name == "n/node*/b2_*/attempt_0");
  for (const auto& job : jobs) {
    CHECK(ranksOf(job) == std::vector<int>{0, 1, 2, 3});
    CHECK(job.files.size() == 4);
  }
  // A rerun with the same run id: node 0 holds two run folders that cannot be paired with node 1's,
  // so each run folder is a job of its own, named by its folder, with its node's global ranks.
  auto same = analysis::recogniseJobs(
      {"n/node0/r_aaaaaaaa/attempt_0/0/stderr.log", "n/node0/r_bbbbbbbb/attempt_0/0/stderr.log",
       "n/node1/r_cccccccc/attempt_0/0/stderr.log"});
  REQUIRE(same.size() == 3);
  CHECK(same[0].name == "r_aaaaaaaa/attempt_0");
  CHECK(same[0].root == "n/node0/r_aaaaaaaa");
  CHECK(same[2].root == "n/node1/r_cccccccc");
  CHECK(ranksOf(same[2]) == std::vector<int>{1});
}

TEST_CASE("the job's initiating rank comes from the timestamps across files, not the file order") {
  // Rank 3 ran out of memory at 14:03; rank 0 raised at 14:20.
  auto jobs = analysis::recogniseJobs({"j/20241206140012_rank0.log", "j/20241206140012_rank1.log",
                                       "j/20241206140012_rank3.log"});
  REQUIRE(jobs.size() == 1);
  // Rank 0's file comes first and its own failure sits early in it; by the clock it is later.
  std::string rank0 = logger("14:00:15", "cdb=None") + logger("14:20:00", "step 300") + kValueError;
  for (int i = 0; i < 20; ++i) rank0 += logger("14:20:0" + std::to_string(1 + i % 9), "still writing");
  const std::string rank1 = logger("14:00:15", "cdb=None") + timeout(1, "14:33:08");
  const std::string rank3 = logger("14:00:15", "cdb=None") + logger("14:03:07", "step 120") + kOom;
  auto job = analyse(jobs[0], {rank0, rank1, rank3});
  REQUIRE(job.report);
  const logs::LogFinding* root = job.report->initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "cuda-oom");
  CHECK(root->initiatingRank == 3);
  REQUIRE_FALSE(root->evidence.empty());
  CHECK(root->evidence.front().file == 2);
  CHECK(root->evidence.front().line == 8);  // the line in rank 3's file
  CHECK(job.report->files == std::vector<std::string>{"j/20241206140012_rank0.log", "j/20241206140012_rank1.log",
                                                      "j/20241206140012_rank3.log"});
  CHECK(job.report->verdict.find("line 8 of j/20241206140012_rank3.log") != std::string::npos);
  // The collateral timeout names its file and line too.
  bool timeoutSeen = false;
  for (const auto& f : job.report->findings)
    if (f.id == "nccl-watchdog-timeout") {
      timeoutSeen = true;
      CHECK(f.collateral);
      CHECK(f.evidence.front().file == 1);
      CHECK(f.evidence.front().line == 2);
    }
  CHECK(timeoutSeen);
  // Each file's diagnostics are on its own lines.
  auto inRank3 = analysis::jobFileFindings(job, 2);
  REQUIRE_FALSE(inRank3.empty());
  CHECK(inRank3.front().code == "log-cuda-oom");
}

TEST_CASE("the timeline's axis is the wall clock: 30 minutes apart look 30 minutes apart") {
  auto jobs = analysis::recogniseJobs({"w/20241206140012_rank0.log", "w/20241206140012_rank1.log"});
  REQUIRE(jobs.size() == 1);
  const std::string rank0 = logger("14:00:00", "cdb=None") + logger("14:03:00", "step 120") + kOom;
  const std::string rank1 = logger("14:00:00", "cdb=None") + timeout(1, "14:33:00") + logger("14:36:00", "cdb=None");
  auto job = analyse(jobs[0], {rank0, rank1});
  const auto& r = *job.report;
  CHECK(r.wallClockTimeline());
  std::optional<double> oom, hang;
  for (const auto& row : r.timeline)
    for (const auto& e : row.events) {
      if (e.findingId == "cuda-oom") oom = e.time;
      if (e.findingId == "nccl-watchdog-timeout") hang = e.time;
    }
  REQUIRE(oom);
  REQUIRE(hang);
  CHECK(*hang - *oom == doctest::Approx(1800.0));
  // On the drawing the axis spans 14:00–14:36, so the OOM sits at 3/36 and the timeout at 33/36
  // of the plot (160..740): 30 minutes are 30/36 of its width.
  const std::string svg = r.timelineSvg();
  CHECK(svg.find("wall clock, 14:00:00–14:36:00") != std::string::npos);
  CHECK(svg.find("cx=\"208.3\"") != std::string::npos);         // 160 + 580 * 3 / 36: the OOM's circle
  CHECK(svg.find("points=\"691.7,") != std::string::npos);       // 160 + 580 * 33 / 36: the timeout's diamond
}

TEST_CASE("a single multi-rank log with timestamps gets the wall-clock axis too; without, log lines") {
  const std::string text = "[rank0]:" + logger("14:00:00", "cdb=None") + "[rank1]:" + logger("14:03:00", "step") +
                           "[rank1]:torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n" +
                           "[rank0]:" + timeout(0, "14:33:00");
  auto report = analysis::analyzeLog(text);
  CHECK(report->wallClockTimeline());
  CHECK(report->toJson()["timelineAxis"] == "wall-clock");
  auto plain = analysis::analyzeLog("[rank1]:torch.cuda.OutOfMemoryError: CUDA out of memory.\n[rank0]:x\n");
  CHECK_FALSE(plain->wallClockTimeline());
  CHECK(plain->toJson()["timelineAxis"] == "lines");
  CHECK(plain->timelineSvg().find("log lines 1–2") != std::string::npos);
}

TEST_CASE("error.json: the exception and its call stack, and when it was recorded") {
  const std::string json =
      R"({"message": {"message": "KeyError: 'text'", "extraInfo": {"py_callstack": "Traceback (most recent call last):\n  File \"/w/data.py\", line 40, in __getitem__\n    return x[\"text\"]\nKeyError: 'text'\n", "timestamp": "1733476365"}}})";
  auto lines = analysis::errorJsonLines(json);
  REQUIRE(lines.lines.size() == 4);
  CHECK(lines.text(lines.lines.back()) == "KeyError: 'text'");
  CHECK(lines.lines.back().number == 1);
  auto recorded = analysis::recordedError(json);
  REQUIRE(recorded);
  CHECK(recorded->message == "KeyError: 'text'");
  CHECK(recorded->timestamp == 1733476365);
  CHECK(analysis::errorJsonLines("not json").lines.empty());
  CHECK_FALSE(analysis::recordedError(R"({"message": "a string"})"));
}

TEST_CASE("a rank prefix in the lines gives the global rank where the torchrun folders give a local one") {
  // Node 1 of two, four local ranks each: its folders say 0-3, torch's own prefixes say 4-7.
  auto jobs = analysis::recogniseJobs({"t/ab_2/attempt_0/0/stderr.log", "t/ab_2/attempt_0/1/stderr.log"});
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].files[0].localRank);
  const std::string local0 = "[rank4]:" + logger("14:00:00", "cdb=None") + "[rank4]:" + timeout(4, "14:33:00");
  std::string local1 = "[rank5]:" + logger("14:00:00", "cdb=None") + "[rank5]:" + logger("14:03:00", "step");
  std::string oom = kOom;
  for (std::size_t at = 0; at < oom.size();) {  // every line of the traceback with the prefix
    local1 += "[rank5]:" + oom.substr(at, oom.find('\n', at) + 1 - at);
    at = oom.find('\n', at) + 1;
  }
  auto job = analyse(jobs[0], {local0, local1});
  const logs::LogFinding* root = job.report->initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "cuda-oom");
  CHECK(root->initiatingRank == 5);
  CHECK(root->rankReason.find("carries the prefix of rank 5") != std::string::npos);
  CHECK(root->evidence.front().file == 1);
}

TEST_CASE("without a rank prefix, a torchrun folder's rank is named a local rank") {
  auto jobs = analysis::recogniseJobs({"t/ab_2/attempt_0/0/stderr.log", "t/ab_2/attempt_0/1/stderr.log"});
  REQUIRE(jobs.size() == 1);
  auto job = analyse(jobs[0], {logger("14:00:00", "cdb=None") + timeout(0, "14:33:00"),
                               logger("14:00:00", "cdb=None") + logger("14:03:00", "step") + kOom});
  const logs::LogFinding* root = job.report->initiatingFinding();
  REQUIRE(root);
  CHECK(root->initiatingRank == 1);
  CHECK(root->rankReason.find("its folder names the local rank") != std::string::npos);
  CHECK(analysis::jobSummary(job).find("local ranks 0, 1") != std::string::npos);
}

// The real log excerpts from the failure-mode reference (part C), each with the
// finding it must produce, and no invented cause where the excerpt has none.
#include "log_test_support.h"

using namespace dsls::logs;
using namespace dsls::logs::testing;

TEST_CASE("DeepSpeed#5066: watchdog timeout and abort are collateral, the cause is not in the log") {
  const LogReport r = analyzeText(readFixture("part-c-ds5066-watchdog.log"));
  INFO(findingIds(r));
  CHECK(r.initiatingFinding() == nullptr);
  const LogFinding* timeout = findingById(r, "nccl-watchdog-timeout");
  REQUIRE(timeout);
  CHECK(timeout->collateral);
  CHECK(timeout->collateralRanks == std::vector<int>{2});
  CHECK(timeout->mechanism.find("1800000 ms") != std::string::npos);
  CHECK(timeout->evidence.front().line == 3);
  const LogFinding* abort = findingById(r, "nccl-process-abort");
  REQUIRE(abort);
  CHECK(abort->collateral);
  CHECK(r.verdict.find("not in this log") != std::string::npos);
  CHECK_FALSE(timeout->initiatingRank);  // ranks 0 and 1 are silent: two candidates, no single suspect
}

TEST_CASE("LlamaFactory#7396: 'detected by watchdog at work' line is a timeout on rank 0") {
  const LogReport r = analyzeText(readFixture("part-c-llamafactory7396-watchdog-work.log"));
  const LogFinding* timeout = findingById(r, "nccl-watchdog-timeout");
  REQUIRE(timeout);
  CHECK(timeout->collateralRanks == std::vector<int>{0});
  CHECK(r.initiatingFinding() == nullptr);
  CHECK(r.ranksSeen == std::vector<int>{0});
}

TEST_CASE("torchtune#1107: different SeqNum/OpType per rank is a desync; rank 1 is behind, named in the reason only") {
  const LogReport r = analyzeText(readFixture("part-c-torchtune1107-desync.log"));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "nccl-desync");
  CHECK_FALSE(root->initiatingRank);
  CHECK(root->rankReason.find("Rank 1 is behind") == 0);
  CHECK(root->rankReason.find("SeqNum=313 _ALLGATHER_BASE") != std::string::npos);
  CHECK(root->rankReason.find("SeqNum=315 ALLREDUCE") != std::string::npos);
}

TEST_CASE("picotron#6: torchrun's Root Cause with SIGABRT does not make rank 0 the cause") {
  const LogReport r = analyzeText(readFixture("part-c-picotron6-root-cause.log"));
  CHECK(r.initiatingFinding() == nullptr);
  const LogFinding* summary = findingById(r, "torchrun-failure-summary");
  REQUIRE(summary);
  CHECK_FALSE(summary->initiatingRank);
  CHECK(summary->mechanism.find("rank 0 first with exit code -6") != std::string::npos);
  CHECK(summary->mechanism.find("SIGABRT") != std::string::npos);
  REQUIRE_FALSE(summary->evidence.empty());
  CHECK(summary->evidence.front().line == 5);  // the exitcode line
  CHECK_FALSE(hasErrorFinding(r));
}

TEST_CASE("DeepSpeed#3232: launcher exit -9 is a host OOM kill, rank unknown despite --local_rank=0") {
  const LogReport r = analyzeText(readFixture("part-c-ds3232-exit-9.log"));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "host-oom");
  CHECK_FALSE(root->initiatingRank);
  CHECK(root->rankReason.find("last one it built") != std::string::npos);
  CHECK(root->verify.find("dmesg") != std::string::npos);
}

TEST_CASE("DeepSpeed#931: two early overflow skips are information, not a failure, and name no rank") {
  const LogReport r = analyzeText(readFixture("part-c-ds931-overflow.log"));
  CHECK(r.initiatingFinding() == nullptr);
  const LogFinding* skips = findingById(r, "fp16-overflow-skips");
  REQUIRE(skips);
  CHECK(skips->severity == dsls::analysis::Severity::Information);
  CHECK(skips->evidenceTotal == 2);
  CHECK_FALSE(skips->initiatingRank);
  CHECK(skips->rankReason.find("rank 0 only") != std::string::npos);
  CHECK(findingById(r, "fp16-loss-scale-floor") == nullptr);
}

TEST_CASE("Qwen-VL#10: NaN grad_norm in HF metrics; without config the overlap_comm link is only mentioned") {
  const LogReport r = analyzeText(readFixture("part-c-qwen10-nan-grad-norm.log"));
  const LogFinding* nan = findingById(r, "nan-grad-norm");
  REQUIRE(nan);
  CHECK(nan->initiating);
  CHECK(nan->evidenceTotal == 2);
  CHECK_FALSE(nan->initiatingRank);
  CHECK(nan->ruleCodes.empty());
  CHECK(nan->mechanism.find("unknown whether overlap_comm was on") != std::string::npos);
  CHECK(findingById(r, "loss-stuck-zero") == nullptr);  // a single 0.0 is not "stuck"
}

TEST_CASE("Qwen-VL#10 under a config with overlap_comm: keys and rule code point at the race") {
  AnalyzerOptions options;
  options.zeroStage = 2;
  options.overlapComm = true;
  options.contiguousGradients = true;
  const LogReport r = analyzeText(readFixture("part-c-qwen10-nan-grad-norm.log"), options);
  const LogFinding* nan = findingById(r, "nan-grad-norm");
  REQUIRE(nan);
  CHECK(nan->configKeys == std::vector<std::string>{"zero_optimization.overlap_comm",
                                                     "zero_optimization.contiguous_gradients"});
  CHECK(nan->ruleCodes == std::vector<std::string>{"overlap-comm-race"});
  CHECK(nan->mechanism.find("cannot prove") != std::string::npos);
  CHECK(nan->verify.find("\"overlap_comm\": false") != std::string::npos);
}

TEST_CASE("DeepSpeed#6737: pdsh host + rank prefix, mid-traceback lines alone are no finding") {
  const LogReport r = analyzeText(readFixture("part-c-ds6737-pdsh-rank.log"));
  CHECK(r.ranksSeen == std::vector<int>{22});
  REQUIRE(r.timeline.size() == 1);
  CHECK(r.timeline[0].label == "rank 22 @ worker-5");
  CHECK(r.initiatingFinding() == nullptr);
  CHECK_FALSE(hasErrorFinding(r));
}

TEST_CASE("piccolo-embedding#8: gradient reduced twice under torchrun's prefix") {
  const LogReport r = analyzeText(readFixture("part-c-piccolo8-reduced-twice.log"));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "zero-grad-reduced-twice");
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 0);
  CHECK(root->rankReason.find("local rank") != std::string::npos);
  CHECK(root->mechanism.find("Parameter 388") != std::string::npos);
}

TEST_CASE("ChatGLM-6B#1166: a checkpoint write that fails is the initiating failure, not an unknown exception") {
  const LogReport r = analyzeText(readFixture("chatglm1166-checkpoint-write.log"));
  INFO(findingIds(r));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "checkpoint-write-failed");
  CHECK(findingById(r, "python-exception") == nullptr);
  REQUIRE(root->evidence.size() == 1);
  CHECK(root->evidence.front().line == 10);
  CHECK(root->mechanism.find("full or a disk quota is exceeded") != std::string::npos);
  CHECK(root->mechanism.find("torch.save stopped at `data/3` of the checkpoint file.") != std::string::npos);
  CHECK(root->verify.find("df -h") != std::string::npos);
  CHECK_FALSE(root->initiatingRank);  // the excerpt has no rank prefix
}

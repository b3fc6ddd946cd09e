// Logs that must not produce an invented cause.
#include "log_generator.h"
#include "log_test_support.h"

#include <nlohmann/json.hpp>

using namespace dsls::logs;
using namespace dsls::logs::testing;

TEST_CASE("a traceback cut before its exception line has no cause") {
  LogWriter w;
  for (int i = 0; i < 10; ++i) w.metrics("", 1.5, "0.4", i * 0.1);
  w.raw("[rank1]: Traceback (most recent call last):");
  w.raw("[rank1]:   File \"/opt/train.py\", line 88, in <module>");
  w.raw("[rank1]:     trainer.train()");
  w.raw("[rank1]:   File \"/opt/deepspeed/runtime/engine.py\", line 2020, in backward");
  const LogReport r = analyzeText(w.text());
  INFO(findingIds(r));
  CHECK(r.initiatingFinding() == nullptr);
  CHECK_FALSE(hasErrorFinding(r));
  const LogFinding* cut = findingById(r, "incomplete-traceback");
  REQUIRE(cut);
  CHECK(cut->severity == dsls::analysis::Severity::Information);
  CHECK(cut->evidence.front().line == 11);
  CHECK(cut->mechanism.find("backward (engine.py:2020)") != std::string::npos);
  CHECK(r.verdict.find("No initiating failure") != std::string::npos);
}

TEST_CASE("a traceback followed by unrelated output and never finished has no cause") {
  LogWriter w;
  w.raw("Traceback (most recent call last):");
  w.raw("  File \"/opt/train.py\", line 3, in <module>");
  for (int i = 0; i < 80; ++i) w.ds("", 100 + i, "INFO", "engine.py:10:step", "step done");
  const LogReport r = analyzeText(w.text());
  CHECK(r.initiatingFinding() == nullptr);
  CHECK(findingById(r, "incomplete-traceback"));
  CHECK(findingById(r, "python-exception") == nullptr);
}

TEST_CASE("a single batch assertion is a config error with no rank and nothing else invented") {
  const LogReport r = analyzeText(
      "AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
      "gradient_acc_step * world_size 8 != 2 * 1 * 1\n");
  INFO(findingIds(r));
  REQUIRE(r.findings.size() == 1);
  const LogFinding& f = r.findings.front();
  CHECK(f.id == "batch-size-assert");
  CHECK(f.initiating);
  CHECK_FALSE(f.initiatingRank);
  CHECK(f.rankReason.find("every rank") != std::string::npos);
  CHECK(f.collateralRanks.empty());
  CHECK(f.mechanism.find("train_batch_size 8 != micro batch 2") != std::string::npos);
  CHECK(f.configKeys == std::vector<std::string>{"train_batch_size", "train_micro_batch_size_per_gpu",
                                                  "gradient_accumulation_steps"});
}

TEST_CASE("the batch assertion raised on every rank still names no rank") {
  LogWriter w;
  for (int r = 0; r < 4; ++r)
    w.traceback("", r, true, {R"(File "/opt/deepspeed/runtime/config.py", line 900, in _batch_assertion)"},
                "AssertionError: Check batch related parameters. train_batch_size is not equal to "
                "micro_batch_per_gpu * gradient_acc_step * world_size 32 != 4 * 2 * 3");
  const LogReport r = analyzeText(w.text());
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "batch-size-assert");
  CHECK_FALSE(root->initiatingRank);
  CHECK(root->rankReason.find("0–3") != std::string::npos);
  CHECK(findingById(r, "python-exception") == nullptr);
}

TEST_CASE("a clean log yields nothing") {
  LogWriter w;
  w.ds("", 0, "INFO", "launch.py:163:main", "dist_world_size=4");
  w.ds("", 1, "INFO", "logging.py:96:log_dist", "[Rank 0] DeepSpeed info: version=0.19.5, git-hash=unknown");
  w.ds("", 2, "INFO", "config.py:1003:print", "  zero_config .................. stage=3 overlap_comm=True");
  w.raw("node1:100:100 [0] NCCL INFO Using network IB");
  for (int i = 0; i < 5000; ++i) {
    w.metrics("", 2.0 - i * 1e-4, "0.9", i * 0.001);
    if (i % 50 == 0) w.ds("", 10 + i, "INFO", "logging.py:96:log_dist", fmt::format("[Rank 0] step={}, skipped=0, lr=[1e-05]", i));
  }
  w.raw("{'train_runtime': 1234.5, 'train_loss': 1.7, 'epoch': 5.0}");
  const LogReport r = analyzeText(w.text());
  INFO(findingIds(r));
  CHECK(r.findings.empty());
  CHECK(r.initiatingFinding() == nullptr);
  CHECK(r.verdict.find("No failure found") != std::string::npos);
  CHECK(r.deepspeedVersion == "0.19.5");
  CHECK(toDiagnostics(r, "train.log").empty());
}

TEST_CASE("words that look like fingerprints in prose are not failures") {
  const LogReport r = analyzeText(
      "Note: to debug a hang set NCCL_DEBUG=INFO.\n"
      "Tip: CUDA out-of-memory errors can be avoided with smaller batches.\n"
      "eval_loss: nan is reported when the eval set is empty\n"
      "[INFO] loss scale: 65536\n");
  INFO(findingIds(r));
  CHECK(r.findings.empty());
}

TEST_CASE("empty and binary input") {
  CHECK(analyzeText("").findings.empty());
  CHECK(analyzeText("").linesRead == 0);
  std::string binary;
  for (int i = 0; i < 100000; ++i) binary += static_cast<char>((i * 131) % 256);
  const LogReport r = analyzeText(binary);
  CHECK(r.initiatingFinding() == nullptr);
  CHECK_NOTHROW((void)r.toJson().dump());
  CHECK_NOTHROW((void)r.markdown());
}

TEST_CASE("colour codes are ignored for matching and removed from evidence text") {
  const std::string line = "\x1b[31m[rank2]: torch.OutOfMemoryError: CUDA out of memory.\x1b[0m";
  const LogReport r = analyzeText(line + "\n");
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "cuda-oom");
  CHECK(root->initiatingRank == 2);
  CHECK(root->evidence[0].text == "[rank2]: torch.OutOfMemoryError: CUDA out of memory.");
  CHECK(root->evidence[0].length == line.size());
}

// Generated multi-rank logs with a known initiating rank and known collateral.
#include "log_generator.h"
#include "log_test_support.h"

using namespace dsls::logs;
using namespace dsls::logs::testing;

namespace {

const char* kOom =
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.63 GiB. GPU 1 has a total capacity of 79.11 GiB "
    "of which 2.61 GiB is free.";

// Two pdsh nodes with four ranks each; rank 5 runs out of GPU memory in backward
// at 10:05; the launcher on worker-1 kills its siblings; the ranks on worker-0
// time out one process-group timeout (30 min) later.
std::string oomThenTimeouts(int failing = 5) {
  LogWriter w;
  const int t0 = 10 * 3600;
  for (const char* h : {"worker-0", "worker-1"}) {
    w.ds(h, t0, "INFO", "launch.py:146:main",
         "WORLD INFO DICT: {'worker-0': [0, 1, 2, 3], 'worker-1': [0, 1, 2, 3]}");
    w.ds(h, t0, "INFO", "launch.py:163:main", "dist_world_size=8");
    w.ds(h, t0, "INFO", "launch.py:161:main",
         "global_rank_mapping=defaultdict(<class 'list'>, {'worker-0': [0, 1, 2, 3], 'worker-1': [4, 5, 6, 7]})");
  }
  w.ds("worker-0", t0 + 5, "INFO", "logging.py:96:log_dist", "[Rank 0] DeepSpeed info: version=0.16.4, git-hash=unknown");
  w.ds("worker-0", t0 + 6, "INFO", "config.py:1003:print",
       "  zero_config .................. stage=2 contiguous_gradients=True reduce_scatter=True "
       "reduce_bucket_size=500000000 overlap_comm=True offload_param=None offload_optimizer=None");
  // Interleaved healthy training from every rank.
  for (int step = 0; step < 40; ++step) {
    const int t = t0 + 10 + step * 7;
    for (int r = 0; r < 8; ++r) {
      const std::string h = r < 4 ? "worker-0" : "worker-1";
      w.ds(h, t, "INFO", "engine.py:1900:step", fmt::format("[Rank {}] micro step {} done", r, step));
    }
    w.metrics("worker-0", 2.5 - step * 0.01, "0.8", step * 0.01);
  }
  const int tFail = t0 + 300;
  w.ds("worker-1", tFail, "INFO", "engine.py:1900:step", "[Rank 4] micro step 41 done");
  // The failing rank's traceback interleaved with another rank's output.
  const std::string host = failing < 4 ? "worker-0" : "worker-1";
  const std::string p = fmt::format("[rank{}]: ", failing);
  w.host(host, p + "Traceback (most recent call last):");
  for (const auto& f : backwardFrames()) {
    w.host(host, p + "  " + f);
    w.ds("worker-0", tFail, "INFO", "engine.py:1900:step", "[Rank 1] micro step 41 done");
    w.host(host, p + "    call()");
  }
  w.host(host, p + kOom);
  w.ds("worker-1", tFail + 2, "INFO", "launch.py:316:sigkill_handler", "Killing subprocess 31337");
  w.ds("worker-1", tFail + 2, "INFO", "launch.py:316:sigkill_handler", "Killing subprocess 31338");
  w.ds("worker-1", tFail + 3, "ERROR", "launch.py:325:sigkill_handler",
       "['/usr/bin/python3', '-u', 'train.py', '--local_rank=3'] exits with return code = 1");
  // 30 minutes later the other node's ranks time out, interleaved.
  const int tTimeout = tFail + 1801;
  for (int r = 0; r < 4; ++r) w.watchdogTimeout("worker-0", r, tTimeout, 1580, "ALLREDUCE", 1800000);
  w.ds("worker-0", tTimeout + 5, "ERROR", "launch.py:325:sigkill_handler",
       "['/usr/bin/python3', '-u', 'train.py', '--local_rank=3'] exits with return code = -6");
  return w.text();
}

}  // namespace

TEST_CASE("OOM on one rank, watchdog timeouts on the others one timeout later") {
  const LogReport r = analyzeText(oomThenTimeouts());
  INFO(findingIds(r));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "cuda-oom");
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 5);
  CHECK(root->collateralRanks == std::vector<int>{0, 1, 2, 3});
  CHECK(root->mechanism.find("backward") != std::string::npos);
  CHECK(root->mechanism.find("2.63 GiB") != std::string::npos);
  CHECK(root->mechanism.find("consistent with the other ranks waiting") != std::string::npos);
  CHECK(root->evidence.front().host == "worker-1");

  const LogFinding* timeouts = findingById(r, "nccl-watchdog-timeout");
  REQUIRE(timeouts);
  CHECK(timeouts->collateral);
  CHECK_FALSE(timeouts->initiating);
  REQUIRE(timeouts->initiatingRank);
  CHECK(*timeouts->initiatingRank == 5);
  CHECK(timeouts->collateralRanks == std::vector<int>{0, 1, 2, 3});

  CHECK(r.worldSize == 8);
  CHECK(r.deepspeedVersion == "0.16.4");
  CHECK(r.resolvedConfig.at("zero_optimization.overlap_comm") == "True");
  // The launcher's "--local_rank=3" command must not leak into the rank choice.
  const LogFinding* exits = findingById(r, "worker-exit");
  REQUIRE(exits);
  CHECK(exits->collateral);
  // Timeline: the initiating event is highlighted on rank 5's row.
  bool marked = false;
  for (const auto& row : r.timeline)
    for (const auto& e : row.events)
      if (e.initiating) {
        marked = true;
        CHECK(row.rank == 5);
        CHECK(row.highlighted);
      }
  CHECK(marked);
}

TEST_CASE("the same scenario with the failure on another rank moves the answer") {
  for (int failing : {0, 2, 7}) {
    const LogReport r = analyzeText(oomThenTimeouts(failing));
    const LogFinding* root = r.initiatingFinding();
    REQUIRE(root);
    CHECK(root->id == "cuda-oom");
    REQUIRE(root->initiatingRank);
    CHECK(*root->initiatingRank == failing);
  }
}

namespace {
std::string unprefixedOom(int failing, bool worldSizeLine) {
  LogWriter w;
  if (worldSizeLine) w.ds("", 10, "INFO", "launch.py:163:main", "dist_world_size=4");
  for (int step = 0; step < 20; ++step) w.metrics("", 2.0, "0.5", step * 0.1);
  w.traceback("", failing, false, backwardFrames(), kOom);
  for (int r = 0; r < 4; ++r)
    if (r != failing) w.watchdogTimeout("", r, 3600, 77, "ALLREDUCE", 600000, false);
  return w.text();
}
}  // namespace

TEST_CASE("unprefixed OOM traceback: the rank missing from the timeouts is named") {
  const LogReport r = analyzeText(unprefixedOom(1, false));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "cuda-oom");
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 1);
  CHECK(root->rankReason.find("did not report a collective timeout") != std::string::npos);
  CHECK(root->collateralRanks == std::vector<int>{0, 2, 3});
  // Rank 1 printed nothing with its prefix: the timeline shows it as an empty, highlighted row.
  bool found = false;
  for (const auto& row : r.timeline)
    if (row.rank == 1) {
      found = true;
      CHECK(row.highlighted);
      CHECK(row.lineCount == 0);
    }
  CHECK(found);
}

TEST_CASE("unprefixed OOM, highest rank silent: unknown without the world size, named with it") {
  const LogReport unknown = analyzeText(unprefixedOom(3, false));
  const LogFinding* root = unknown.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "cuda-oom");
  CHECK_FALSE(root->initiatingRank);
  CHECK(root->rankReason.find("no rank prefix") != std::string::npos);

  const LogReport known = analyzeText(unprefixedOom(3, true));
  root = known.initiatingFinding();
  REQUIRE(root);
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 3);
}

TEST_CASE("timeouts only: the silent rank is the suspect, no cause is invented") {
  LogWriter w;
  w.ds("", 100, "INFO", "launch.py:163:main", "dist_world_size=4");
  for (int r : {3, 2, 1}) w.watchdogTimeout("", r, 4000, 500, "_ALLGATHER_BASE", 1800000);
  const LogReport r = analyzeText(w.text());
  CHECK(r.initiatingFinding() == nullptr);
  const LogFinding* timeouts = findingById(r, "nccl-watchdog-timeout");
  REQUIRE(timeouts);
  REQUIRE(timeouts->initiatingRank);
  CHECK(*timeouts->initiatingRank == 0);
  CHECK(timeouts->rankReason.find("Suspect") != std::string::npos);
  CHECK(r.verdict.find("Suspect: rank 0") != std::string::npos);
  CHECK(timeouts->mechanism.find("same collective") != std::string::npos);
}

TEST_CASE("all ranks time out on the same collective: no suspect") {
  LogWriter w;
  w.ds("", 100, "INFO", "launch.py:163:main", "dist_world_size=4");
  for (int r = 0; r < 4; ++r) w.watchdogTimeout("", r, 4000, 500, "ALLREDUCE", 600000);
  const LogReport r = analyzeText(w.text());
  CHECK(r.initiatingFinding() == nullptr);
  const LogFinding* timeouts = findingById(r, "nccl-watchdog-timeout");
  REQUIRE(timeouts);
  CHECK_FALSE(timeouts->initiatingRank);
  CHECK(timeouts->rankReason.find("no rank stands out") != std::string::npos);
}

TEST_CASE("desync: one rank at a different SeqNum and OpType among agreeing ranks") {
  LogWriter w;
  for (int r : {0, 1, 2}) w.watchdogTimeout("node-a1", r, 5000, 1000, "ALLREDUCE", 600000);
  w.watchdogTimeout("node-a1", 3, 5001, 998, "_ALLGATHER_BASE", 600000);
  const LogReport r = analyzeText(w.text());
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "nccl-desync");
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 3);
  CHECK(root->collateralRanks == std::vector<int>{0, 1, 2});
  CHECK(root->mechanism.find("SeqNum=998 _ALLGATHER_BASE") != std::string::npos);
}

TEST_CASE("desync of two ranks says which one is behind, but names no initiating rank from the SeqNums alone") {
  LogWriter w;
  w.watchdogTimeout("", 1, 5000, 1, "BROADCAST", 1800000);
  w.watchdogTimeout("", 0, 5000, 2, "ALLGATHER", 1800000);
  const LogReport r = analyzeText(w.text());
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "nccl-desync");
  CHECK_FALSE(root->initiatingRank);
  CHECK(root->rankReason.find("Rank 1 is behind") == 0);
  CHECK(root->rankReason.find("do not say which one stopped") != std::string::npos);
  CHECK(root->rankReason.find("odd one out") == std::string::npos);
}

TEST_CASE("desync with two equal groups names no single rank") {
  LogWriter w;
  for (int r : {0, 1}) w.watchdogTimeout("", r, 5000, 1000, "ALLREDUCE", 600000);
  for (int r : {2, 3}) w.watchdogTimeout("", r, 5000, 1002, "BROADCAST", 600000);
  const LogReport r = analyzeText(w.text());
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "nccl-desync");
  CHECK_FALSE(root->initiatingRank);
  CHECK(root->rankReason.find("several groups") != std::string::npos);
}

TEST_CASE("rank-0-only overflow log collapsing to the minimum scale names no rank: every rank raises the exception") {
  LogWriter w;
  double scale = 65536;
  int t = 1000;
  for (int i = 0; i < 40; ++i, t += 3) {
    const double next = scale > 1 ? scale / 2 : 1;
    w.ds("", t, "INFO", "loss_scaler.py:183:update_scale",
         fmt::format("[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: {:g}, reducing to {:g}", scale,
                     next));
    if (i % 10 == 0) w.ds("", t, "INFO", "logging.py:96:log_dist", fmt::format("[Rank 0] step={}, skipped={}, lr=[1e-05]", i + 1, i + 1));
    scale = next;
  }
  for (int r = 0; r < 4; ++r)
    w.traceback("", r, true, {R"(File "/opt/deepspeed/runtime/fp16/loss_scaler.py", line 180, in update_scale)"},
                "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.");
  const LogReport r = analyzeText(w.text());
  INFO(findingIds(r));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "fp16-loss-scale-floor");
  CHECK_FALSE(root->initiatingRank);
  REQUIRE(root->rankScope);
  CHECK(*root->rankScope == dsls::logs::RankScope::All);
  CHECK(root->rankReason.find("all-reduce") != std::string::npos);
  CHECK(root->mechanism.find("DeepSpeed stopped the run: the loss scale was already at its minimum.") !=
        std::string::npos);
  const LogFinding* skips = findingById(r, "fp16-overflow-skips");
  REQUIRE(skips);
  CHECK(skips->severity == dsls::analysis::Severity::Warning);
  CHECK(skips->evidenceTotal == 40);
  CHECK(skips->evidence.size() <= 12);
  CHECK(findingById(r, "python-exception") == nullptr);  // the Exception lines are the catalogued failure
}

TEST_CASE("a few early overflow skips in a long healthy run are information only") {
  LogWriter w;
  for (int i = 0; i < 3; ++i)
    w.ds("", 10 + i, "INFO", "loss_scaler.py:183:update_scale",
         fmt::format("[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: {}, reducing to {}",
                     65536 >> i, 32768 >> i));
  for (int step = 10; step <= 1000; step += 10)
    w.ds("", 100 + step, "INFO", "logging.py:96:log_dist", fmt::format("[Rank 0] step={}, skipped=3, lr=[1e-05]", step));
  const LogReport r = analyzeText(w.text());
  CHECK(r.initiatingFinding() == nullptr);
  const LogFinding* skips = findingById(r, "fp16-overflow-skips");
  REQUIRE(skips);
  CHECK(skips->severity == dsls::analysis::Severity::Information);
  CHECK(skips->mechanism.find("step=1000, skipped=3") != std::string::npos);
  CHECK_FALSE(hasErrorFinding(r));
}

TEST_CASE("torchrun --tee prefixes: interleaved ranks, the first non-collective exception wins") {
  LogWriter w;
  for (int i = 0; i < 5; ++i)
    for (int r = 0; r < 4; ++r) w.raw(fmt::format("[default{}]:iteration {} ok", r, i));
  // Rank 2 fails with a ValueError; later the others fail on the broken communicator.
  w.raw("[default2]:Traceback (most recent call last):");
  w.raw("[default0]:iteration 5 ok");
  w.raw("[default2]:  File \"/opt/train.py\", line 12, in <module>");
  w.raw("[default1]:iteration 5 ok");
  w.raw("[default2]:    batch = next(it)");
  w.raw("[default2]:ValueError: too many values to unpack (expected 2)");
  for (int r : {0, 1, 3}) {
    w.raw(fmt::format("[default{}]:Traceback (most recent call last):", r));
    w.raw(fmt::format("[default{}]:  File \"/opt/torch/distributed/c10d.py\", line 2, in all_reduce", r));
    w.raw(fmt::format("[default{}]:torch.distributed.DistBackendError: NCCL communicator was aborted on rank {}.", r, r));
  }
  const LogReport r = analyzeText(w.text());
  INFO(findingIds(r));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "python-exception");
  CHECK(root->title == "Uncaught ValueError");
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 2);
  CHECK(root->collateralRanks == std::vector<int>{0, 1, 3});
  CHECK(root->mechanism.find("too many values to unpack") != std::string::npos);
  CHECK(findingById(r, "nccl-error") == nullptr);  // an aborted communicator is a consequence
}

TEST_CASE("torchrun: worker killed with -9 and a root-cause entry naming it") {
  LogWriter w;
  w.raw("[default0]:loading checkpoint shards");
  w.raw("E0501 10:00:05.123000 140 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) "
        "local_rank: 3 (pid: 438) of binary: /opt/conda/bin/python");
  w.raw("Root Cause (first observed failure):");
  w.raw("[0]:");
  w.raw("  time      : 2024-05-01_10:00:05");
  w.raw("  host      : gpu-node-7");
  w.raw("  rank      : 3 (local_rank: 3)");
  w.raw("  exitcode  : -9 (pid: 438)");
  w.raw("  error_file: <N/A>");
  w.raw("  traceback : Signal 9 (SIGKILL) received by PID 438");
  w.raw("============================================================");
  const LogReport r = analyzeText(w.text());
  INFO(findingIds(r));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "host-oom");
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 3);
  CHECK(root->rankReason.find("first exit torchrun observed") != std::string::npos);
  REQUIRE(findingById(r, "torchrun-failure-summary"));
}

TEST_CASE("an exception after the first timeout is flagged as possibly collateral") {
  LogWriter w;
  w.watchdogTimeout("", 0, 100, 5, "ALLREDUCE", 600000);
  w.traceback("", 1, true, {R"(File "/opt/train.py", line 3, in <module>)"}, "KeyError: 'labels'");
  const LogReport r = analyzeText(w.text());
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "python-exception");
  CHECK(root->rankReason.find("after the first collective timeout") != std::string::npos);
}

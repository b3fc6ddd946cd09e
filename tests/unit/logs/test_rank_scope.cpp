// Who started it, and how many ranks a failure concerns: rankScope "one", "all" or
// "unknown", from the failure line, torchrun's summary, the launch, or none.
#include <fmt/format.h>

#include "log_test_support.h"

#include <nlohmann/json.hpp>

using namespace dsls::logs;
using namespace dsls::logs::testing;

namespace {

const LogFinding& initiating(const LogReport& r) {
  const LogFinding* f = r.initiatingFinding();
  REQUIRE_MESSAGE(f, "no initiating finding; findings: " << findingIds(r));
  return *f;
}
// The finding lives in the report: a report that is about to go leaves a dangling reference.
const LogFinding& initiating(const LogReport&& r) = delete;

}  // namespace

TEST_CASE("a configuration error is raised on every rank: scope all, no rank named") {
  const LogReport r = analyzeText(
      "[rank1]: Traceback (most recent call last):\n"
      "[rank1]:   File \"/opt/train.py\", line 10, in <module>\n"
      "[rank1]: AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
      "gradient_acc_step * world_size 32 != 4 * 1 * 4\n"
      "[rank0]: Traceback (most recent call last):\n"
      "[rank0]:   File \"/opt/train.py\", line 10, in <module>\n"
      "[rank0]: AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
      "gradient_acc_step * world_size 32 != 4 * 1 * 4\n");
  const LogFinding& f = initiating(r);
  CHECK(f.id == "batch-size-assert");
  CHECK_FALSE(f.initiatingRank);
  REQUIRE(f.rankScope);
  CHECK(*f.rankScope == RankScope::All);
  CHECK(f.scopeRanks == std::vector<int>{0, 1});
  CHECK(r.toJson()["findings"][0]["rankScope"] == "all");
  CHECK(r.markdown().find("**Rank:** every rank") != std::string::npos);
  CHECK(r.verdict.find("every rank") != std::string::npos);
  const auto diagnostics = toDiagnostics(r, "train.log");
  REQUIRE_FALSE(diagnostics.empty());
  CHECK(diagnostics[0].message.find("every rank") != std::string::npos);
}

TEST_CASE("a checkpoint shape mismatch fails on every rank") {
  const LogReport r = analyzeText(
      "[rank2]: RuntimeError: Error(s) in loading state_dict for GPT:\n"
      "[rank2]: \tsize mismatch for lm_head.weight: copying a param with shape torch.Size([32000, 4096]) from "
      "checkpoint, the shape in current model is torch.Size([32001, 4096]).\n");
  const LogFinding& f = initiating(r);
  CHECK(f.id == "checkpoint-size-mismatch");
  REQUIRE(f.rankScope);
  CHECK(*f.rankScope == RankScope::All);
  CHECK_FALSE(f.initiatingRank);
}

TEST_CASE("the same exception on two ranks without timestamps: no single initiator") {
  const LogReport r = analyzeText(
      "[rank3]: Traceback (most recent call last):\n"
      "[rank3]:   File \"/opt/data.py\", line 41, in __getitem__\n"
      "[rank3]: KeyError: 'input_ids'\n"
      "[rank5]: Traceback (most recent call last):\n"
      "[rank5]:   File \"/opt/data.py\", line 41, in __getitem__\n"
      "[rank5]: KeyError: 'input_ids'\n");
  const LogFinding& f = initiating(r);
  CHECK(f.id == "python-exception");
  CHECK_FALSE(f.initiatingRank);
  REQUIRE(f.rankScope);
  CHECK(*f.rankScope == RankScope::Unknown);
  CHECK(f.scopeRanks == std::vector<int>{3, 5});
  CHECK(r.toJson()["findings"][0]["rankScope"] == "unknown");
  CHECK(r.markdown().find("unknown (ranks 3, 5 report it)") != std::string::npos);
}

TEST_CASE("the same exception on two ranks, ordered by timestamps: the earlier one") {
  const LogReport r = analyzeText(
      "2024-11-20 14:37:16 [rank5]: Traceback (most recent call last):\n"
      "2024-11-20 14:37:16 [rank5]:   File \"/opt/data.py\", line 41, in __getitem__\n"
      "2024-11-20 14:37:16 [rank5]: KeyError: 'input_ids'\n"
      "2024-11-20 14:37:19 [rank3]: Traceback (most recent call last):\n"
      "2024-11-20 14:37:19 [rank3]:   File \"/opt/data.py\", line 41, in __getitem__\n"
      "2024-11-20 14:37:19 [rank3]: KeyError: 'input_ids'\n");
  const LogFinding& f = initiating(r);
  REQUIRE(f.initiatingRank);
  CHECK(*f.initiatingRank == 5);
  REQUIRE(f.rankScope);
  CHECK(*f.rankScope == RankScope::One);
  CHECK(f.rankReason.find("rank evidence: torch-rank") != std::string::npos);
}

TEST_CASE("torchrun's root cause with exit code 1 and no other failures names the rank") {
  const std::string summary =
      "Traceback (most recent call last):\n"
      "  File \"/opt/train.py\", line 12, in <module>\n"
      "ValueError: tokenizer has no pad token\n"
      "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
      "============================================================\n"
      "train.py FAILED\n"
      "------------------------------------------------------------\n"
      "Failures:\n"
      "  <NO_OTHER_FAILURES>\n"
      "------------------------------------------------------------\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2024-11-20_14:37:16\n"
      "  host      : node-1\n"
      "  rank      : 6 (local_rank: 2)\n"
      "  exitcode  : CODE (pid: 3431)\n"
      "  error_file: <N/A>\n"
      "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
      "============================================================\n";
  auto withCode = [&](const std::string& code) {
    std::string text = summary;
    text.replace(text.find("CODE"), 4, code);
    return analyzeText(text);
  };
  const LogReport r = withCode("1");
  const LogFinding& f = initiating(r);
  REQUIRE(f.initiatingRank);
  CHECK(*f.initiatingRank == 6);
  CHECK(f.rankReason.find("torchrun root cause") != std::string::npos);
  // A signal in the root-cause entry is often sent after another rank failed: no rank from it.
  const LogReport killed = withCode("-6");
  CHECK_FALSE(initiating(killed).initiatingRank);
}

TEST_CASE("a root cause that exited before the other ranks timed out names its rank; one after them does not") {
  const std::string summary =
      "Failures:\n"
      "  <NO_OTHER_FAILURES>\n"
      "------------------------------------------------------------\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2024-08-20_TIME\n"
      "  host      : workergpu008.cm.cluster\n"
      "  rank      : 4 (local_rank: 0)\n"
      "  exitcode  : CODE (pid: 793062)\n"
      "  error_file: <N/A>\n"
      "============================================================\n";
  const std::string timeout =
      "[rank0]:[E820 11:47:24.069865760 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=2, OpType=_ALLGATHER_BASE, NumelIn=1, NumelOut=2, Timeout(ms)=600000) ran for "
      "600023 milliseconds before timing out.\n";
  auto log = [&](const std::string& time, const std::string& code) {
    std::string text = summary;
    text.replace(text.find("TIME"), 4, time);
    text.replace(text.find("CODE"), 4, code);
    return analyzeText(text + timeout);
  };
  const LogReport before = log("11:37:36", "1");
  const LogFinding* root = before.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "worker-exit");
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 4);
  CHECK(root->collateralRanks == std::vector<int>{0});
  CHECK(root->rankReason.find("before the first collective timeout") != std::string::npos);
  // Exited after the timeout: it may have been the timeout's own exception.
  CHECK_FALSE(log("11:57:36", "1").initiatingFinding());
  // SIGABRT, even before the timeout, names no rank: it is often the watchdog's own abort.
  const LogReport aborted = log("11:37:36", "-6");
  CHECK((!aborted.initiatingFinding() || !aborted.initiatingFinding()->initiatingRank));
  // SIGKILL is read as the host's OOM killer, and its rank is the summary entry's, said so.
  const LogReport killed = log("11:37:36", "-9");
  REQUIRE(killed.initiatingFinding());
  CHECK(killed.initiatingFinding()->rankReason.find("is torchrun's failure-summary entry for rank 4") !=
        std::string::npos);
}

TEST_CASE("a single-process launch is rank 0") {
  const LogReport r = analyzeText(
      "[2024-11-20 14:37:00,000] [INFO] [launch.py:163:main] dist_world_size=1\n"
      "Traceback (most recent call last):\n"
      "  File \"/opt/train.py\", line 12, in <module>\n"
      "KeyError: 'labels'\n");
  const LogFinding& f = initiating(r);
  REQUIRE(f.initiatingRank);
  CHECK(*f.initiatingRank == 0);
  CHECK(*f.rankScope == RankScope::One);
}

// Accelerate prints its state ("Num processes: N"), the elastic agent its rendezvous result
// ("global_world_sizes=[N, ...]"): both give the job's world size.
TEST_CASE("the world size from Accelerate's state and the elastic agent's rendezvous") {
  const std::string failure =
      "Traceback (most recent call last):\n"
      "  File \"/opt/train.py\", line 12, in <module>\n"
      "KeyError: 'labels'\n";
  const LogReport accelerate =
      analyzeText("Distributed environment: NO\nNum processes: 1\nProcess index: 0\n" + failure);
  CHECK(accelerate.worldSize == 1);
  const LogFinding& f = initiating(accelerate);
  REQUIRE(f.initiatingRank);
  CHECK(*f.initiatingRank == 0);
  CHECK(f.rankReason.find("world size 1") != std::string::npos);
  CHECK(analyzeText("stdout: Num processes: 8\nstdout: Process index: 6\n" + failure).worldSize == 8);
  CHECK(analyzeText("  global_world_sizes=[4, 4, 4, 4]\n" + failure).worldSize == 4);
  // Near misses: a count of data-loading workers, a setting echoed in a sentence.
  CHECK_FALSE(analyzeText("Num processes for tokenization: 16\n" + failure).worldSize);
  CHECK_FALSE(analyzeText("Using Num processes: 1 as the default\n" + failure).worldSize);
  const LogReport workers = analyzeText("Num workers: 1\n" + failure);
  CHECK_FALSE(initiating(workers).initiatingRank);
}

// dlrover 533: a bare AssertionError over the job's sizes, raised before training began.
TEST_CASE("an assertion over the job's sizes alone fails on every rank") {
  const auto assertion = [](const std::string& code, const std::string& function = "train") {
    return analyzeText("rank 0 is initialized local_rank = 0\n"
                       "Traceback (most recent call last):\n"
                       "  File \"model_zoo/pytorch/nanogpt/train.py\", line 379, in <module>\n"
                       "    train()\n"
                       "  File \"model_zoo/pytorch/nanogpt/train.py\", line 178, in " +
                       function + "\n    " + code + "\nAssertionError\n");
  };
  for (const char* code : {"assert gradient_accumulation_steps % world_size == 0",
                           "assert args.global_batch_size % (args.micro_batch_size * args.dp_size) == 0",
                           "assert world_size > 1 and batch_size % world_size == 0, \"uneven\""}) {
    CAPTURE(code);
    const LogReport report = assertion(code);
    const LogFinding& f = initiating(report);
    REQUIRE(f.rankScope);
    CHECK(*f.rankScope == RankScope::All);
    CHECK_FALSE(f.initiatingRank);
    CHECK(f.rankReason.find("checks the job's sizes alone") != std::string::npos);
  }
  // Near misses: a rank or a device in the condition, a tensor's shape, a call, a check in the
  // forward pass, another exception type.
  for (const char* code : {"assert rank < world_size", "assert args.batch_size % len(devices) == 0",
                           "assert x.size(0) == micro_batch_size", "assert local_batch == batch_size",
                           "check(world_size)"}) {
    CAPTURE(code);
    const LogReport report = assertion(code);
    const LogFinding& f = initiating(report);
    CHECK((!f.rankScope || *f.rankScope != RankScope::All));
  }
  // Training steps printed before it: the ranks were training, and their batch sizes may differ.
  const LogReport training = analyzeText(
      "{'loss': 1.2, 'grad_norm': 0.5, 'learning_rate': 1e-05, 'epoch': 0.1}\n"
      "Traceback (most recent call last):\n  File \"train.py\", line 178, in train\n"
      "    assert batch_size % world_size == 0\nAssertionError\n");
  CHECK((!initiating(training).rankScope || *initiating(training).rankScope != RankScope::All));
  const LogReport forward = assertion("assert batch_size % world_size == 0", "forward");
  const LogFinding& inForward = initiating(forward);
  CHECK((!inForward.rankScope || *inForward.rankScope != RankScope::All));
  const LogReport other = analyzeText("Traceback (most recent call last):\n  File \"t.py\", line 1, in <module>\n"
                                      "    assert batch_size % world_size == 0\nValueError: x\n");
  CHECK((!initiating(other).rankScope || *initiating(other).rankScope != RankScope::All));
}

TEST_CASE("a local rank on a multi-node job is not a global rank") {
  const LogReport r = analyzeText(
      "node-1: [default1]:Traceback (most recent call last):\n"
      "node-1: [default1]:  File \"/opt/train.py\", line 12, in <module>\n"
      "node-1: [default1]:KeyError: 'labels'\n"
      "node-2: [default0]:some progress line\n");
  const LogFinding& f = initiating(r);
  CHECK_FALSE(f.initiatingRank);
  CHECK(f.rankReason.find("not a global rank") != std::string::npos);
}

TEST_CASE("NCCL WARN lines take the rank their process's Init line maps") {
  const LogReport r = analyzeText(
      "gpu-a:2051:2051 [1] NCCL INFO comm 0x5573 rank 9 nranks 16 cudaDev 1 busId 20000 - Init COMPLETE\n"
      "gpu-a:2051:2051 [1] NCCL INFO comm 0x6621 rank 1 nranks 2 cudaDev 1 busId 20000 - Init COMPLETE\n"
      "gpu-a:2051:2301 [1] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error\n"
      "gpu-a:2051:2301 [1] NCCL INFO transport/net.cc:1084 -> 6\n"
      "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled system error, NCCL version 2.18.1\n"
      "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n");
  bool mapped = false;
  for (const auto& row : r.timeline)
    if (row.rank && *row.rank == 9 && row.host == "gpu-a") mapped = true;
  CHECK(mapped);
  for (int rank : r.ranksSeen) CHECK(rank != 1);  // the device index and the sub-group rank are not ranks
}

TEST_CASE("torchrun's agent names the first failed worker on one node") {
  const std::string text =
      "[2024-05-08 08:47:30,100] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 5937 closing "
      "signal SIGTERM\n"
      "[2024-05-08 08:47:31,877] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) "
      "local_rank: 2 (pid: 5939) of binary: /usr/bin/python\n";
  const LogReport r = analyzeText(text);
  const LogFinding& f = initiating(r);
  CHECK(f.id == "worker-exit");
  REQUIRE(f.initiatingRank);
  CHECK(*f.initiatingRank == 2);
  CHECK(f.rankReason.find("torchrun agent exit") != std::string::npos);
  // SIGTERM from the agent is what the other workers get: never the first failure.
  const LogReport sigterm = analyzeText(
      "E0217 16:43:29.165000 355419 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -15) "
      "local_rank: 1 (pid: 355716) of binary: /usr/bin/python3.11\n");
  CHECK_FALSE(sigterm.initiatingFinding());
}

TEST_CASE("the DeepSpeed launcher killing one subprocess means one worker: rank 0") {
  const LogReport r = analyzeText(
      "> torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 978.00 MiB (GPU 0; 4.00 GiB total)\n"
      "> [2023-07-04 17:31:27,755] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 953850\n"
      "> [2023-07-04 17:31:27,755] [ERROR] [launch.py:321:sigkill_handler] ['python', '-u', 'x.py', '--local_rank=0'] "
      "exits with return code = 1\n");
  const LogFinding& f = initiating(r);
  CHECK(f.id == "cuda-oom");
  REQUIRE(f.initiatingRank);
  CHECK(*f.initiatingRank == 0);
  const LogReport two = analyzeText(
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 978.00 MiB (GPU 0; 4.00 GiB total)\n"
      "[2023-07-04 17:31:27,755] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 953850\n"
      "[2023-07-04 17:31:27,755] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 953851\n");
  CHECK_FALSE(initiating(two).initiatingRank);
}

TEST_CASE("timeouts from several process groups are not read as a desync") {
  auto line = [](int rank, int seq) {
    return fmt::format("[rank{0}]:[E501 01:02:03.123456 ProcessGroupNCCL.cpp:607] [Rank {0}] Watchdog caught "
                       "collective operation timeout: WorkNCCL(SeqNum={1}, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
                       "Timeout(ms)=600000) ran for 600001 milliseconds before timing out.\n",
                       rank, seq);
  };
  const LogReport r = analyzeText(line(0, 96117) + line(0, 96125) + line(7, 64088));
  CHECK_FALSE(findingById(r, "nccl-desync"));
  const LogFinding* t = findingById(r, "nccl-watchdog-timeout");
  REQUIRE(t);
  CHECK(t->mechanism.find("more than one process group") != std::string::npos);
  // one group each: still a desync with the odd rank
  const LogReport skew = analyzeText(line(0, 96117) + line(1, 96117) + line(7, 64088));
  CHECK(findingById(skew, "nccl-desync"));
}

TEST_CASE("torchrun's summary with several workers exiting with 1: no single initiator") {
  auto entry = [](int index, int rank) {
    return fmt::format("[{0}]:\n  time      : 2024-08-13_13:16:55\n  host      : node-5\n  rank      : {1} (local_rank: "
                       "{1})\n  exitcode  : 1 (pid: 1708{1})\n  error_file: <N/A>\n",
                       index, rank);
  };
  // the paste starts inside the list of failures, below its header
  const std::string text = entry(5, 6) + entry(6, 7) +
                           "------------------------------------------------------------\n"
                           "Root Cause (first observed failure):\n" +
                           entry(0, 1) + "============================================================\n";
  const LogReport r = analyzeText(text);
  const LogFinding& f = initiating(r);
  CHECK(f.id == "worker-exit");
  CHECK_FALSE(f.initiatingRank);
  REQUIRE(f.rankScope);
  CHECK(*f.rankScope == RankScope::Unknown);
  CHECK(f.scopeRanks == std::vector<int>{1, 6, 7});
}

TEST_CASE("a pydantic v2 field error without its header is a validation error on every rank") {
  const LogReport r = analyzeText(
      "[rank3]:   Input should be a valid integer, got a number with a fractional part [type=int_from_float, "
      "input_value=15099494.4, input_type=float]\n");
  const LogFinding& f = initiating(r);
  CHECK(f.id == "config-validation-error");
  REQUIRE(f.rankScope);
  CHECK(*f.rankScope == RankScope::All);
  // v1's wording is too plain to stand alone
  CHECK(analyzeText("  value is not a valid integer (type=type_error.integer)\n").findings.empty());
}

namespace {

const std::string kWorldOfTwo = "[2020-12-24 16:25:13,902] [INFO] [launch.py:100:main] dist_world_size=2\n";

// A traceback of `rank` (no prefix when negative) raising `exception` from `frame`.
std::string traceback(int rank, const std::string& frame, const std::string& exception) {
  const std::string p = rank < 0 ? "" : fmt::format("[rank{}]: ", rank);
  return p + "Traceback (most recent call last):\n" + p + frame + "\n" + p + "    garbage\n" + p + exception + "\n";
}

const std::string kModuleFrame = "  File \"fail.py\", line 1, in <module>";
const std::string kNameError = "NameError: name 'garbage' is not defined";

}  // namespace

TEST_CASE("the same exception from every process before training, world size known: every rank") {
  SUBCASE("without rank prefixes, one traceback per process") {
    const LogReport r = analyzeText(kWorldOfTwo + traceback(-1, kModuleFrame, kNameError) +
                                    traceback(-1, kModuleFrame, kNameError));
    const LogFinding& f = initiating(r);
    CHECK(f.id == "python-exception");
    REQUIRE(f.rankScope);
    CHECK(*f.rankScope == RankScope::All);
    CHECK_FALSE(f.initiatingRank);
    CHECK(f.rankReason.find("2 processes of the job (world size 2)") != std::string::npos);
    CHECK(f.rankReason.find("<module> (fail.py:1)") != std::string::npos);
  }
  SUBCASE("with rank prefixes covering 0..W-1") {
    const LogReport r = analyzeText(kWorldOfTwo + traceback(1, kModuleFrame, kNameError) +
                                    traceback(0, kModuleFrame, kNameError));
    const LogFinding& f = initiating(r);
    REQUIRE(f.rankScope);
    CHECK(*f.rankScope == RankScope::All);
    CHECK(f.scopeRanks == std::vector<int>{0, 1});
    CHECK(f.rankReason.find("every rank of the job (world size 2)") != std::string::npos);
  }
}

TEST_CASE("near misses: the same exception on several ranks that is not shown to be on every rank") {
  auto scopeOf = [](const std::string& text) {
    const LogReport r = analyzeText(text);
    const LogFinding& f = initiating(r);
    REQUIRE(f.rankScope);
    return *f.rankScope;
  };
  const std::string twice = traceback(-1, kModuleFrame, kNameError) + traceback(-1, kModuleFrame, kNameError);
  // the world size is not in the log
  CHECK(scopeOf(twice) != RankScope::All);
  // two tracebacks from a job of four processes
  CHECK(scopeOf("dist_world_size=4\n" + twice) != RankScope::All);
  // ranks 0 and 2 of a job of two: not 0..W-1 (the world size line is stale or wrong)
  CHECK(scopeOf(kWorldOfTwo + traceback(0, kModuleFrame, kNameError) + traceback(2, kModuleFrame, kNameError)) !=
        RankScope::All);
  // another message on the second rank
  CHECK(scopeOf(kWorldOfTwo + traceback(0, kModuleFrame, kNameError) +
                traceback(1, kModuleFrame, "NameError: name 'other' is not defined")) != RankScope::All);
  // raised at another line
  CHECK(scopeOf(kWorldOfTwo + traceback(0, kModuleFrame, kNameError) +
                traceback(1, "  File \"fail.py\", line 7, in <module>", kNameError)) != RankScope::All);
  // raised during the forward pass, after collectives began
  const std::string forward = "  File \"/opt/model.py\", line 88, in forward";
  CHECK(scopeOf(kWorldOfTwo + traceback(0, forward, "KeyError: 'labels'") + traceback(1, forward, "KeyError: 'labels'")) !=
        RankScope::All);
  // an exception that depends on resources, not on the code
  CHECK(scopeOf(kWorldOfTwo + traceback(0, kModuleFrame, "MemoryError: cannot allocate") +
                traceback(1, kModuleFrame, "MemoryError: cannot allocate")) != RankScope::All);
  // a collective timed out: some rank waited for another
  CHECK(scopeOf(kWorldOfTwo + traceback(0, kModuleFrame, kNameError) + traceback(1, kModuleFrame, kNameError) +
                "[rank1]:[E ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600004 "
                "milliseconds before timing out.\n") != RankScope::All);
}

TEST_CASE("two CUDA OOMs on every rank are not deterministic: no single initiator") {
  const std::string oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 "
                          "GiB total capacity; 75.01 GiB already allocated)";
  const LogReport r = analyzeText(kWorldOfTwo + traceback(0, kModuleFrame, oom) + traceback(1, kModuleFrame, oom));
  const LogFinding& f = initiating(r);
  CHECK(f.id == "cuda-oom");
  REQUIRE(f.rankScope);
  CHECK(*f.rankScope == RankScope::Unknown);
  CHECK(f.scopeRanks == std::vector<int>{0, 1});
}

// Errors whose rank is in their own text or on a neighbouring line of the same report (Ascend,
// Gaudi, NCCL's invalid rank, a monitored barrier), collateral reports (Horovod's shutdown,
// NCCL's transport probing) and exceptions raised while the arguments are checked.
#include <doctest/doctest.h>

#include <string>

#include "log_test_support.h"

namespace {

using dsls::logs::RankScope;
using dsls::logs::testing::findingById;
using dsls::logs::testing::hasErrorFinding;
using dsls::logs::testing::initiatingFinding;

}  // namespace

TEST_CASE("Ascend: the HCCL error takes the rank of the CANN header on the next line") {
  const auto report = dsls::logs::analyzeText(
      "RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64\n"
      "[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST call hccl api failed.\n"
      "EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last training "
      "process is running.\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "hccl-error");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 3);
  CHECK(f->rankReason.find("names, in its own text, rank 3") != std::string::npos);
  CHECK(f->mechanism.find("EJ0001") != std::string::npos);
}

TEST_CASE("Ascend: EL0004 after the header is the NPU out of memory on that rank") {
  const auto report = dsls::logs::analyzeText(
      "[ERROR] 2024-08-28-16:15:00 (PID:15597, Device:2, RankID:2) ERR00100 PTA call acl api failed\n"
      "EL0004: 2024-08-28-16:15:00.358.141 Failed to allocate memory.\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "npu-oom");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 2);
}

TEST_CASE("Gaudi: '[Rank:7] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed' is the HPU OOM of rank 7") {
  const auto report = dsls::logs::analyzeText(
      "RuntimeError: [Rank:7] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::2123366400 (2025)MB\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "hpu-oom");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 7);
}

TEST_CASE("NCCL's libibverbs warning while probing transports is no failure") {
  const auto report = dsls::logs::analyzeText(
      "ai:480850:480850 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
      "ai:480850:480850 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n");
  CHECK(findingById(report, "nccl-error") == nullptr);
  CHECK_FALSE(hasErrorFinding(report));
}

TEST_CASE("NCCL's 'Invalid rank requested : 2/2' names rank 2") {
  const auto report =
      dsls::logs::analyzeText("worker-1:25:25 [0] init.cc:981 NCCL WARN Invalid rank requested : 2/2\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "nccl-error");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 2);
  CHECK(f->evidence.size() == 1);
}

TEST_CASE("a monitored barrier names the rank that did not arrive; the reporting rank is collateral") {
  const auto report = dsls::logs::analyzeText(
      "[rank0]: RuntimeError: [Rank 0]: Ranks 6 failed to pass monitoredBarrier in 1800000 ms\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "monitored-barrier-timeout");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 6);
  CHECK(f->collateralRanks == std::vector<int>{0});
}

TEST_CASE("Horovod's shutdown is collateral: mpirun's first process initiates") {
  const auto report = dsls::logs::analyzeText(
      "[1,1]<stderr>:RuntimeError: Horovod has been shut down. This was caused by an exception on one of the ranks\n"
      "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
      "the job to be terminated. The first process to do so was:\n"
      "\n"
      "  Process name: [[50371,1],0]\n"
      "  Exit code:    1\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "worker-exit");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 0);
  const auto* shutdown = findingById(report, "horovod-shutdown");
  REQUIRE(shutdown);
  CHECK(shutdown->collateral);
}

TEST_CASE("a launcher's reports with the same status have no single initiator; another status is collateral") {
  const auto same = dsls::logs::analyzeText(
      "Process 3 exit with status code 250.\nProcess 2 exit with status code 250.\n");
  const auto* f = initiatingFinding(same);
  REQUIRE(f);
  REQUIRE(f->rankScope);
  CHECK(*f->rankScope == RankScope::Unknown);
  CHECK_FALSE(f->initiatingRank);
  const auto other = dsls::logs::analyzeText("Process 3 exit with status code 137.\nProcess 2 exit with status code 1.\n");
  const auto* g = initiatingFinding(other);
  REQUIRE(g);
  CHECK(g->id == "host-oom");
  REQUIRE(g->initiatingRank);
  CHECK(*g->initiatingRank == 3);
  CHECK(g->collateralRanks == std::vector<int>{2});
}

TEST_CASE("an exception raised while TrainingArguments checks its fields is every rank's") {
  const auto report = dsls::logs::analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"/work/train.py\", line 12, in <module>\n"
      "    args = parser.parse_args_into_dataclasses()\n"
      "  File \"/usr/lib/python3/site-packages/transformers/hf_argparser.py\", line 339, in parse_args_into_dataclasses\n"
      "    obj = dtype(**inputs)\n"
      "  File \"<string>\", line 125, in __init__\n"
      "  File \"/usr/lib/python3/site-packages/transformers/training_args.py\", line 1408, in __post_init__\n"
      "    raise ValueError(\n"
      "ValueError: --load_best_model_at_end requires the save and eval strategy to match\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "python-exception");
  REQUIRE(f->rankScope);
  CHECK(*f->rankScope == RankScope::All);
  CHECK(f->rankReason.find("arguments and configuration") != std::string::npos);
}

TEST_CASE("apex's loss scale collapsing below 1 is the loss-scale floor") {
  const auto report = dsls::logs::analyzeText(
      "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 2.916448807822559e-303\n"
      "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 1.4582244039112795e-303\n");
  CHECK(findingById(report, "fp16-overflow-skips") != nullptr);
  CHECK(findingById(report, "fp16-loss-scale-floor") != nullptr);
}

TEST_CASE("a rank tag indented by the reporter is still the rank") {
  const auto report = dsls::logs::analyzeText("\t[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2 GiB\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 1);
}

TEST_CASE("DeepSpeed's 'loss scale already at minimum' exception is every rank's: the overflow check is all-reduced") {
  const auto report = dsls::logs::analyzeText(
      "[rank0]: Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.\n"
      "[rank1]: Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "fp16-loss-scale-floor");
  REQUIRE(f->rankScope);
  CHECK(*f->rankScope == RankScope::All);
  CHECK_FALSE(f->initiatingRank);
}

TEST_CASE("PyTorch's 'NCCL Error 2: unhandled system error' is the NCCL error of the rank that raised it") {
  const auto report = dsls::logs::analyzeText(
      "[rank10]: RuntimeError: NCCL Error 2: unhandled system error (run with NCCL_DEBUG=INFO for details)\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "nccl-error");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 10);
}

TEST_CASE("an exception raised inside an op's JIT build is the op build failure; the CUDA warning that accepts is not") {
  const auto report = dsls::logs::analyzeText(
      "nvcc fatal   : Unsupported gpu architecture 'compute_86'\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3/site-packages/torch/utils/cpp_extension.py\", line 1533, in _run_ninja_build\n"
      "    raise CalledProcessError(retcode, process.args,\n"
      "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "op-build-failure");
  CHECK(findingById(report, "python-exception") == nullptr);
  const auto accepted = dsls::logs::analyzeText(
      "Installed CUDA version 11.8 does not match the version torch was compiled with 11.7 but since the APIs are "
      "compatible, accepting this combination\n");
  CHECK(findingById(accepted, "op-build-failure") == nullptr);
}

TEST_CASE("spawn's 'Process 3 terminated with the following error' gives the exception that follows rank 3") {
  const auto report = dsls::logs::analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 9, in <module>\n"
      "    mp.spawn(main, nprocs=8)\n"
      "torch.multiprocessing.spawn.ProcessRaisedException: \n"
      "\n"
      "-- Process 3 terminated with the following error:\n"
      "Traceback (most recent call last):\n"
      "  File \"/work/train.py\", line 30, in main\n"
      "    load(cfg)\n"
      "KeyError: 'model'\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 3);
  CHECK(f->rankReason.find("process 3") != std::string::npos);
}

TEST_CASE("Transformers' ZeRO-3 refusal of low_cpu_mem_usage is every rank's") {
  const auto report = dsls::logs::analyzeText(
      "ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a `device_map`.\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "zero3-low-cpu-mem-usage-conflict");
  REQUIRE(f->rankScope);
  CHECK(*f->rankScope == RankScope::All);
}

TEST_CASE("an exception raised while a checkpoint is loaded is every rank's") {
  const auto report = dsls::logs::analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3/site-packages/transformers/trainer.py\", line 1943, in train\n"
      "    deepspeed_load_checkpoint(self.model_wrapped, resume_from_checkpoint)\n"
      "  File \"/usr/lib/python3/site-packages/transformers/integrations/deepspeed.py\", line 389, in deepspeed_load_checkpoint\n"
      "    raise ValueError(f\"unknown tag {tag}\")\n"
      "ValueError: unknown tag global_step1500\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "python-exception");
  REQUIRE(f->rankScope);
  CHECK(*f->rankScope == RankScope::All);
  CHECK(f->rankReason.find("a checkpoint's load") != std::string::npos);
}

TEST_CASE("PyTorch 2.6's watchdog summary and a rank's dump request are that rank's collective timeouts") {
  const auto summary = dsls::logs::analyzeText(
      "[rank5]:[E626 16:48:25.440238649 ProcessGroupNCCL.cpp:2268] [PG ID 0 PG GUID 0(default_pg) Rank 5]  failure "
      "detected by watchdog at work sequence id: 120049 PG status: last enqueued work: 120051, last completed work: "
      "120048\n");
  CHECK(findingById(summary, "nccl-watchdog-timeout") != nullptr);
  const auto dump = dsls::logs::analyzeText(
      "[rank1]:[E801 01:01:39.254662130 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID 0(default_pg) Rank 1] Received a "
      "dump signal due to a collective timeout from this local rank and we will try our best to dump the debug info. "
      "Last enqueued NCCL work: 3755, last completed NCCL work: 3754.\n");
  const auto* f = findingById(dump, "nccl-watchdog-timeout");
  REQUIRE(f);
  CHECK(f->evidence.front().rank == std::optional<int>(1));
}

TEST_CASE("Megatron's 'Rank 3: found NaN in local grad norm' is rank 3's NaN gradient norm") {
  const auto report = dsls::logs::analyzeText(
      "AssertionError: Rank 3: found NaN in local grad norm in backwards pass. Device: 3, node: host-7\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "nan-grad-norm");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 3);
}

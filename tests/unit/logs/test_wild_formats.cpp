// Formats and failures found in real logs pasted into public issues, each with its real excerpt
// (tests/fixtures/logs/real/) and a near miss: the world size from Accelerate's defaults warning,
// fairscale's parallel sizes and Megatron's banner; a worker crashing on a signal of its own in
// torchrun's summary; the DeepSpeed launcher's kills without its exit line; ZeRO-Offload refusing
// a client optimizer; a rank that cannot read the NCCL unique id from the root's store.
#include "log_test_support.h"

using namespace dsls::logs;
using namespace dsls::logs::testing;

// --- the world size from other banners ------------------------------------------------

TEST_CASE("LlamaFactory#163: Accelerate's defaults warning gives the world size (behind stderr: tags)") {
  const LogReport r = analyzeReal("llamafactory163-stderr-accelerate-defaults-nearmiss.log");
  REQUIRE(r.worldSize);
  CHECK(*r.worldSize == 8);
  CHECK_FALSE(hasErrorFinding(r));
}

TEST_CASE("Accelerate's --num_processes of 1 makes a failure without a rank rank 0's") {
  const LogReport r = analyzeText(
      "The following values were not passed to `accelerate launch` and had defaults used instead:\n"
      "\t`--num_processes` was set to a value of `1`\n"
      "\t`--num_machines` was set to a value of `1`\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.69 GiB total "
      "capacity)\n");
  REQUIRE(r.worldSize);
  CHECK(*r.worldSize == 1);
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "cuda-oom");
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 0);
  CHECK(root->rankReason.find("world size 1") != std::string::npos);
}

TEST_CASE("Near miss: Accelerate's other defaults and its advice are no world size") {
  const LogReport r = analyzeText(
      "\t`--num_machines` was set to a value of `2`\n"
      "\t\tIf this was unintended please pass in `--num_processes=1`.\n"
      "\t`--mixed_precision` was set to a value of `'no'`\n");
  CHECK_FALSE(r.worldSize);
}

TEST_CASE("meta-llama#856: fairscale's three parallel sizes give world size 1") {
  const LogReport r = analyzeReal("metallama856-single-process-exit-9.log");
  REQUIRE(r.worldSize);
  CHECK(*r.worldSize == 1);
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "host-oom");
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 0);
}

TEST_CASE("fairscale's world is the product of its model-parallel, ddp and pipeline sizes") {
  const LogReport r = analyzeText(
      "> initializing model parallel with size 2\n"
      "> initializing ddp with size 4\n"
      "> initializing pipeline with size 1\n");
  REQUIRE(r.worldSize);
  CHECK(*r.worldSize == 8);
}

TEST_CASE("Near miss: Megatron's tensor and pipeline model-parallel lines, or two of fairscale's three, are no world") {
  // Megatron's set-up as metaseq#88 shows it: the data-parallel size is not printed.
  const LogReport megatron = analyzeText(
      "> initializing torch distributed ...\n"
      "> initializing tensor model parallel with size 1\n"
      "> initializing pipeline model parallel with size 1\n"
      "> setting random seeds to 1234 ...\n");
  CHECK_FALSE(megatron.worldSize);
  const LogReport partial = analyzeText(
      "> initializing model parallel with size 1\n"
      "> initializing ddp with size 1\n");
  CHECK_FALSE(partial.worldSize);
}

TEST_CASE("Megatron-LM#1880: Megatron's 'using world size' banner gives the world size; the banner is no error") {
  const LogReport r = analyzeReal("megatronlm1880-arguments-banner-nearmiss.log");
  REQUIRE(r.worldSize);
  CHECK(*r.worldSize == 2);
  CHECK_FALSE(hasErrorFinding(r));
  const LogReport words = analyzeText("using torch.bfloat16 for parameters ...\nNumber of virtual stages per "
                                      "pipeline stage: None\n");
  CHECK_FALSE(words.worldSize);
}

// --- who started it --------------------------------------------------------------------

TEST_CASE("hallo2#75: torchrun's root cause with SIGSEGV and no other failures names rank 0") {
  const LogReport r = analyzeReal("hallo2-75-root-cause-sigsegv-rank0.log");
  INFO(findingIds(r));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "worker-exit");
  REQUIRE(root->initiatingRank);
  CHECK(*root->initiatingRank == 0);
  CHECK(root->rankReason.find("exit code -11 (SIGSEGV") != std::string::npos);
  const LogFinding* summary = findingById(r, "torchrun-failure-summary");
  REQUIRE(summary);
  CHECK(summary->mechanism.find("SIGSEGV, a crash of the process itself") != std::string::npos);
}

TEST_CASE("Near miss: a root cause killed by SIGABRT, or a SIGSEGV among other failures, names no rank") {
  const std::string block =
      "Failures:\n"
      "{OTHER}"
      "------------------------------------------------------------\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2025-03-04_15:41:29\n"
      "  host      : amax\n"
      "  rank      : 0 (local_rank: 0)\n"
      "  exitcode  : {CODE} (pid: 3182701)\n"
      "  error_file: <N/A>\n"
      "  traceback : Signal {SIG} received by PID 3182701\n"
      "============================================================\n";
  auto fill = [&](std::string other, std::string code, std::string sig) {
    std::string t = block;
    t.replace(t.find("{OTHER}"), 7, other);
    t.replace(t.find("{CODE}"), 6, code);
    t.replace(t.find("{SIG}"), 5, sig);
    return t;
  };
  const LogReport abort = analyzeText(fill("  <NO_OTHER_FAILURES>\n", "-6", "6 (SIGABRT)"));
  INFO(findingIds(abort));
  CHECK(abort.initiatingFinding() == nullptr);
  const LogReport others = analyzeText(fill("[1]:\n  time      : 2025-03-04_15:41:29\n  host      : amax\n"
                                            "  rank      : 1 (local_rank: 1)\n  exitcode  : -11 (pid: 3182702)\n"
                                            "  error_file: <N/A>\n  traceback : Signal 11 (SIGSEGV) received by PID "
                                            "3182702\n",
                                            "-11", "11 (SIGSEGV)"));
  INFO(findingIds(others));
  const LogFinding* root = others.initiatingFinding();
  REQUIRE(root);
  CHECK_FALSE(root->initiatingRank);
}

TEST_CASE("DeepSpeed#1581: the launcher's kills without its exit line are a worker exit of no known rank") {
  const LogReport r = analyzeReal("ds1581-launcher-kills-eight-subprocesses.log");
  INFO(findingIds(r));
  const LogFinding* exit = findingById(r, "worker-exit");
  REQUIRE(exit);
  CHECK_FALSE(exit->initiatingRank);
  CHECK(exit->evidence.front().line == 1);
  CHECK(exit->mechanism.find("killed 8 subprocesses") != std::string::npos);
}

TEST_CASE("Near miss: the launcher's kills after a failure, or before its exit line, add no worker exit of their own") {
  // OpenRLHF#398: an OOM on rank 7, then the launcher's kill.
  const LogReport oom = analyzeReal("openrlhf398-rank7-oom.log");
  INFO(findingIds(oom));
  CHECK(findingById(oom, "worker-exit") == nullptr);
  const LogReport exitLine = analyzeText(
      "[2021-11-21 08:32:07,148] [INFO] [launch.py:131:sigkill_handler] Killing subprocess 250621\n"
      "[2021-11-21 08:32:07,149] [INFO] [launch.py:131:sigkill_handler] Killing subprocess 250622\n"
      "[2021-11-21 08:32:07,153] [ERROR] [launch.py:137:sigkill_handler] ['python', '-u', 'train.py', "
      "'--local_rank=1'] exits with return code = 1\n");
  const LogFinding* exit = findingById(exitLine, "worker-exit");
  REQUIRE(exit);
  CHECK(exit->mechanism.find("killed 2 subprocesses") == std::string::npos);
  CHECK(exit->mechanism.find("exit code of 1") != std::string::npos);
}

// --- failures -----------------------------------------------------------------------------

TEST_CASE("Lightning#17603: ZeRO-Offload refusing a client optimizer, wrapped, fails on every rank") {
  const LogReport r = analyzeReal("lightning17603-wrapped-zero-offload-client-optimizer.log");
  REQUIRE(looksLikeTrainingLog(readFixture("real/lightning17603-wrapped-zero-offload-client-optimizer.log")));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "zero-offload-client-optimizer");
  REQUIRE(root->rankScope);
  CHECK(*root->rankScope == RankScope::All);
  CHECK(root->configKeys ==
        std::vector<std::string>{"optimizer.type", "zero_optimization.offload_optimizer.device",
                                 "zero_force_ds_cpu_optimizer"});
}

TEST_CASE("Near miss: DeepSpeed choosing a client optimizer, or the setting that allows it, is no failure") {
  const LogReport r = analyzeText(
      "[2024-01-01 10:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] Using client Optimizer as basic "
      "optimizer\n"
      "  \"zero_force_ds_cpu_optimizer\": false\n"
      "[2024-01-01 10:00:01,000] [INFO] [logging.py:96:log_dist] [Rank 0] Creating ZeRO Offload\n");
  CHECK(findingById(r, "zero-offload-client-optimizer") == nullptr);
  CHECK_FALSE(hasErrorFinding(r));
}

TEST_CASE("LlamaFactory#2470: rank 14 cannot read the NCCL unique id from rank 0's store: a victim, not the cause") {
  const LogReport r = analyzeReal("llamafactory2470-pdsh-store-reset-rank14.log");
  INFO(findingIds(r));
  const LogFinding* nccl = findingById(r, "nccl-error");
  REQUIRE(nccl);
  CHECK_FALSE(nccl->initiatingRank);
  CHECK(nccl->collateralRanks == std::vector<int>{14});
  CHECK(nccl->mechanism.find("Rank 14 could not get the NCCL unique id from rank 0's c10d store (Connection reset "
                             "by peer): ") != std::string::npos);
  CHECK(nccl->mechanism.find("rank 14 only reports it") != std::string::npos);
  CHECK(nccl->mechanism.find("Look at rank 0's own output first.") != std::string::npos);
  // torch 1.x spells it "retreiving"; a timeout on the key is the same failure.
  const LogReport old = analyzeText(
      "RuntimeError: [1] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via c10d key-value "
      "store by key '0', but store->get('0') got error: Timeout waiting for key: default_pg/0/0 after 1800000 ms\n");
  const LogFinding* timeout = findingById(old, "nccl-error");
  REQUIRE(timeout);
  CHECK(timeout->collateralRanks == std::vector<int>{1});
}

TEST_CASE("Near miss: the same set-up sentence without the store's error is no NCCL error") {
  const LogReport r = analyzeText(
      "[I ProcessGroupNCCL.cpp:1087] [14] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via "
      "c10d key-value store by key '0'\n");
  CHECK(findingById(r, "nccl-error") == nullptr);
}

// --- glued tracebacks ---------------------------------------------------------------------

TEST_CASE("A frame glued after another process's code line counts as a frame (DeepSpeed#4194's shape)") {
  const LogReport r = analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 10, in <module>\n"
      "    ret_val = func(*args, **kwargs)  File \"/x/deepspeed/runtime/zero/partitioned_param_coordinator.py\", "
      "line 446, in __all_gather_params_\n"
      "    handle = partitioned_params[0].all_gather_coalesced(partitioned_params)\n"
      "RuntimeError: bad gather\n");
  const LogFinding* f = findingById(r, "python-exception");
  REQUIRE(f);
  CHECK(f->mechanism.find("Innermost frames: <module> (train.py:10) → __all_gather_params_ "
                          "(partitioned_param_coordinator.py:446).") != std::string::npos);
  // The real paste (no exception line in it) stays a traceback without its exception, no error.
  const LogReport real = analyzeReal("ds4194-glued-zero3-allgather-frames-nearmiss.log");
  INFO(findingIds(real));
  CHECK_FALSE(hasErrorFinding(real));
  CHECK(findingById(real, "incomplete-traceback"));
}

TEST_CASE("Near miss: code quoting a frame, or an exception line glued to a frame, is no glued frame") {
  const LogReport quoted = analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 10, in <module>\n"
      "    print('  File \"x.py\", line 1, in y')\n"
      "RuntimeError: bad\n");
  const LogFinding* f = findingById(quoted, "python-exception");
  REQUIRE(f);
  CHECK(f->mechanism.find("Innermost frames: <module> (train.py:10).") != std::string::npos);
  // Just after an exception line, an exception line with a frame glued to it stays an exception
  // line (here the same one printed again): it starts no traceback left without its end.
  const LogReport glued = analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 10, in <module>\n"
      "    main()\n"
      "ValueError: bad value\n"
      "ValueError: bad value  File \"train.py\", line 12, in main\n");
  INFO(findingIds(glued));
  CHECK(findingById(glued, "python-exception"));
  CHECK(findingById(glued, "incomplete-traceback") == nullptr);
}

// Sticky CUDA faults, collective mismatches, launcher signals and ZeRO-3 trace-cache
// warnings: a real excerpt for each (sources in tests/fixtures/logs/README.md), and
// near-miss text that must not match.
#include "log_test_support.h"

using namespace dsls::logs;
using namespace dsls::logs::testing;

namespace {

const LogFinding& initiatingOf(const LogReport& r) {
  const LogFinding* f = r.initiatingFinding();
  REQUIRE_MESSAGE(f, "no initiating finding; findings: " << findingIds(r));
  return *f;
}

}  // namespace

TEST_CASE("lmdeploy#3048: an illegal memory access reported by the watchdog is the rank's own fault") {
  const LogReport r = analyzeText(readFixture("lmdeploy3048-illegal-memory-access.log"));
  const LogFinding& f = initiatingOf(r);
  CHECK(f.id == "cuda-illegal-memory-access");
  REQUIRE(f.initiatingRank);
  CHECK(*f.initiatingRank == 0);
  CHECK_FALSE(findingById(r, "nccl-process-abort"));  // the same line, not an abort of its own
  CHECK(f.mechanism.find("sticky") != std::string::npos);
}

TEST_CASE("ms-swift#9443: a collective mismatch names the two ranks, not the reporter alone") {
  const LogReport r = analyzeText(readFixture("msswift9443-collective-mismatch.log"));
  const LogFinding& f = initiatingOf(r);
  CHECK(f.id == "collective-mismatch");
  CHECK_FALSE(f.initiatingRank);
  REQUIRE(f.rankScope);
  CHECK(*f.rankScope == RankScope::Unknown);
  CHECK(f.scopeRanks == std::vector<int>{0, 1});
  CHECK(f.mechanism.find("Tensor shapes: 195812480vs 51123456") != std::string::npos);
}

TEST_CASE("a ProcessGroupWrapper sequence-number skew is its own failure") {
  const LogReport r = analyzeText(
      "  RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: "
      "CollectiveFingerPrint(SequenceNumber=1OpType=BARRIER), but Rank 2 is running collective: "
      "CollectiveFingerPrint(SequenceNumber=0OpType=BARRIER).\n");
  CHECK(initiatingOf(r).id == "collective-sequence-mismatch");
}

TEST_CASE("ms-swift#64 and prime-rl#1360: the launcher stopped by a signal, no worker failed") {
  const LogReport hup = analyzeText(readFixture("msswift64-sighup.log"));
  const LogFinding& f = initiatingOf(hup);
  CHECK(f.id == "launcher-sighup");
  CHECK_FALSE(f.initiatingRank);
  CHECK(f.rankReason.find("no rank started it") != std::string::npos);
  const LogReport term = analyzeText(readFixture("primerl1360-sigterm.log"));
  CHECK(initiatingOf(term).id == "launcher-signal");
  CHECK(initiatingOf(term).mechanism.find("The signal is 15 (SIGTERM).") != std::string::npos);
}

TEST_CASE("LlamaFactory#6760 and Visual-RFT#51: trace-cache invalidation is a warning, not the failure") {
  for (const char* name : {"llamafactory6760-trace-cache.log", "visualrft51-trace-cache-modules.log"}) {
    CAPTURE(name);
    const LogReport r = analyzeText(readFixture(name));
    const LogFinding* f = findingById(r, "zero3-trace-cache-invalidated");
    REQUIRE(f);
    CHECK(f->severity == dsls::analysis::Severity::Warning);
    CHECK(f->evidenceTotal == 4);
    CHECK_FALSE(r.initiatingFinding());
  }
}

TEST_CASE("NVIDIA/nccl#1405: an NCCL WARN line reporting an IB completion error is an NCCL error") {
  const LogReport r = analyzeText(readFixture("nccl1405-ib-completion-warn.log"));
  const LogFinding& f = initiatingOf(r);
  CHECK(f.id == "nccl-error");
  CHECK(f.mechanism.find("vendor err 129") != std::string::npos);
  CHECK_FALSE(f.initiatingRank);  // [4] is a device index
}

TEST_CASE("near misses: text about these failures that reports none") {
  for (const char* line : {
           "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
           "NCCL INFO NVLS multicast support is not available on dev 7",
           "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 4797 closing signal SIGINT",
           "Sending process 124533 closing signal SIGTERM",
           "[rank0]: TORCH_DISTRIBUTED_DEBUG=DETAIL set: collectives are checked for mismatches between ranks",
           "Setting stage3_prefetch_bucket_size to 0 disables the trace cache",
           "loss: 0.1, illegal_memory_access_count: 0",
           "test-trt-prefill-worker-0-0:43:43 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so.",
           "gpu-1:12:12 [0] NCCL WARN NET/Plugin: Could not find real path of libnccl-net.so",
       }) {
    CAPTURE(line);
    const LogReport r = analyzeText(std::string(line) + "\n");
    CHECK(r.findings.empty());
  }
}

TEST_CASE("dolly#139: a full disk under torch.save is a checkpoint write failure; elsewhere a plain exception") {
  const std::string save =
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.7/site-packages/torch/serialization.py\", line 379, in save\n"
      "    _save(obj, opened_zipfile, pickle_module, pickle_protocol)\n"
      "OSError: [Errno 28] No space left on device\n";
  const LogReport r = analyzeText(save);
  INFO(findingIds(r));
  CHECK(findingById(r, "checkpoint-write-failed"));
  CHECK_FALSE(findingById(r, "python-exception"));
  // The excerpt as Metaflow printed it: every line behind its task prefix.
  std::string metaflow;
  for (std::size_t at = 0, nl; (nl = save.find('\n', at)) != std::string::npos; at = nl + 1)
    metaflow += "2023-04-29 06:01:12.977 [177/train/578 (pid 28936)] [09c561ee-a44c-4795-967c-7183a83b3160] " +
                save.substr(at, nl + 1 - at);
  CHECK(findingById(analyzeText(metaflow), "checkpoint-write-failed"));
  // Near miss: the same error from a dataset cache write is not a checkpoint failure.
  const std::string cache =
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.10/site-packages/datasets/arrow_writer.py\", line 580, in write_batch\n"
      "    self.stream.write(batch)\n"
      "OSError: [Errno 28] No space left on device\n";
  const LogReport near = analyzeText(cache);
  INFO(findingIds(near));
  CHECK_FALSE(findingById(near, "checkpoint-write-failed"));
  CHECK(findingById(near, "python-exception"));
}

TEST_CASE("Megatron-DeepSpeed#396: iteration lines with 'grad norm: nan' are a NaN gradient norm") {
  const std::string line =
      " iteration     5426/  250000 | consumed samples:        43408 | learning rate: 2.999E-04 | global batch size:     "
      "8 | loss scale: 1.0 | grad norm: nan | actual seqlen:  2048 | number of skipped iterations:   0 |\n";
  CHECK(findingById(analyzeText(line + line), "nan-grad-norm"));
  // Near miss: a finite norm.
  std::string finite = line;
  finite.replace(finite.find("grad norm: nan"), 14, "grad norm: 1.2");
  CHECK_FALSE(findingById(analyzeText(finite + finite), "nan-grad-norm"));
}

TEST_CASE("ChatGLM-Tuning#258: a paste that starts inside a traceback, its header cut off") {
  const std::string frames =
      "File \"/checkpoint/binary/train_package/finetune.py\", line 125, in <module>\n"
      "    main()\n"
      "  File \"/root/.local/lib/python3.8/site-packages/transformers/trainer.py\", line 1633, in train\n"
      "    return inner_training_loop(\n"
      "  File \"/checkpoint/binary/train_package/finetune.py\", line 28, in data_collator\n"
      "    seq_len = feature[\"seq_len\"]\n"
      "KeyError: 'seq_len'\n";
  const LogReport r = analyzeText(frames);
  INFO(findingIds(r));
  CHECK(findingById(r, "python-exception"));
  // Near miss: a frame line later in a text, with no traceback around it, starts nothing.
  CHECK_FALSE(findingById(analyzeText("step 1 done\n" + frames.substr(frames.find("  File \"/checkpoint", 10))),
                          "python-exception"));
}

TEST_CASE("IDiff-Face#6 and mmcv#2894: the interpreter of every worker cannot open the script: every rank") {
  for (const char* name : {"real/idiffface6-script-not-found-every-process.log", "real/mmcv2894-slurm-script-not-found.log"}) {
    CAPTURE(name);
    const LogReport r = analyzeText(readFixture(name));
    const LogFinding& f = initiatingOf(r);
    CHECK(f.id == "script-not-found");
    REQUIRE(f.rankScope);
    CHECK(*f.rankScope == RankScope::All);
    CHECK_FALSE(f.initiatingRank);
    CHECK(f.evidenceTotal == 2);
    CHECK(f.mechanism.find("[Errno 2] No such file or directory") != std::string::npos);
    // the agent's first exit is a consequence, not the initiating failure
    const LogFinding* exit = findingById(r, "worker-exit");
    REQUIRE(exit);
    CHECK_FALSE(exit->initiating);
  }
}

TEST_CASE("near misses: a missing file that is not the script, and other wordings") {
  for (const char* line : {
           "FileNotFoundError: [Errno 2] No such file or directory: 'data/train.json'",
           "OSError: Can't open file 'model.h5' (file signature not found)",
           "python3: can't open file train.py: [Errno 2] No such file or directory",  // no quotes: not the interpreter's
           "cannot open file '/data/x.bin': [Errno 2] No such file or directory",
       }) {
    CAPTURE(line);
    CHECK_FALSE(findingById(analyzeText(std::string("[rank0]: ") + line + "\n"), "script-not-found"));
  }
}

TEST_CASE("Megatron-LLaMA#14: a kernel's device-side assertion is its own failure, with the assertion named") {
  const LogReport r = analyzeText(readFixture("real/megatronllama14-device-assert.log"));
  const LogFinding& f = initiatingOf(r);
  CHECK(f.id == "cuda-device-assert");
  CHECK_FALSE(f.initiatingRank);
  CHECK(f.mechanism.find("`t >= 0 && t < n_classes` in the kernel nll_loss_forward_reduce_cuda_kernel_2d") !=
        std::string::npos);
  // One finding for the lines every failing GPU thread prints.
  CHECK(std::count_if(r.findings.begin(), r.findings.end(),
                      [](const LogFinding& x) { return x.id == "cuda-device-assert"; }) == 1);
}

TEST_CASE("the CUDA error after a device-side assertion is the same fault, not a watchdog abort") {
  const LogReport r = analyzeText(
      "[rank0]:[E ProcessGroupNCCL.cpp:1515] [PG 0 Rank 0] Process group watchdog thread terminated with "
      "exception: CUDA error: device-side assert triggered\n");
  CHECK(initiatingOf(r).id == "cuda-device-assert");
  CHECK_FALSE(findingById(r, "nccl-process-abort"));
}

TEST_CASE("NCCL's own report of a CUDA failure: out of memory, illegal access") {
  const LogReport oom = analyzeText(readFixture("real/peft1703-interleaved-nccl-cuda-oom.log"));
  CHECK(findingById(oom, "cuda-oom"));
  const LogReport illegal = analyzeText("ncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\n"
                                        "Cuda failure 700 'an illegal memory access was encountered'\n");
  CHECK(findingById(illegal, "cuda-illegal-memory-access"));
}

TEST_CASE("sglang#1693: the C++ runtime ending the process on the watchdog's exception is an abort") {
  const LogReport r = analyzeText(readFixture("real/sglang1693-terminate-watchdog-frames.log"));
  CHECK(findingById(r, "nccl-process-abort"));
  CHECK(findingById(r, "nccl-watchdog-timeout"));
  // Another C++ exception is not the watchdog's.
  const LogReport other = analyzeText("terminate called after throwing an instance of 'std::bad_alloc'\n");
  CHECK_FALSE(findingById(other, "nccl-process-abort"));
}

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>

#include "analysis/logs/lines/line_prefix.h"
#include "analysis/logs/logs.h"

using dsls::logs::parsePrefixes;
using dsls::logs::RankSource;

TEST_CASE("pdsh host and PyTorch rank prefix") {
  const auto info = parsePrefixes(
      "worker-5: [rank22]:   File \"/x/deepspeed/runtime/engine.py\", line 262, in __init__");
  CHECK(info.host == "worker-5");
  REQUIRE(info.rank);
  CHECK(*info.rank == 22);
  CHECK(info.rankSource == RankSource::Global);
  CHECK(info.message == "  File \"/x/deepspeed/runtime/engine.py\", line 262, in __init__");
}

TEST_CASE("pdsh host given as an IP address") {
  const auto info = parsePrefixes("10.0.89.152: File \".../stage2.py\", line 954, in reduce_ipg_grads");
  CHECK(info.host == "10.0.89.152");
  CHECK_FALSE(info.rank);
  CHECK(info.message.substr(0, 4) == "File");
}

TEST_CASE("exception names and tools are not hosts") {
  CHECK(parsePrefixes("RuntimeError: CUDA error: out of memory").host.empty());
  CHECK(parsePrefixes("ninja: build stopped: subcommand failed.").host.empty());
  CHECK(parsePrefixes("2024-02-03: something").host.empty());
  CHECK(parsePrefixes("localhost: [rank0]: hi").host == "localhost");
}

TEST_CASE("torchrun role prefix gives a local rank") {
  const auto info = parsePrefixes("[default3]:AssertionError: The parameter 388 has already been reduced.");
  REQUIRE(info.localRank);
  CHECK(*info.localRank == 3);
  REQUIRE(info.rank);
  CHECK(*info.rank == 3);
  CHECK(info.rankSource == RankSource::LocalPrefix);
  CHECK(info.message == "AssertionError: The parameter 388 has already been reduced.");
}

TEST_CASE("DeepSpeed logger prefix") {
  const auto info =
      parsePrefixes("[2024-02-03 11:48:17,107] [INFO] [launch.py:316:sigkill_handler] Killing subprocess 2694488");
  CHECK(info.timestamp == "2024-02-03 11:48:17,107");
  CHECK(info.level == "INFO");
  CHECK(info.source == "launch.py:316:sigkill_handler");
  CHECK(info.message == "Killing subprocess 2694488");
  CHECK_FALSE(info.rank);
}

TEST_CASE("log_dist rank marker; Rank -1 means no rank") {
  auto info = parsePrefixes("[2022-10-01 10:00:00,000] [INFO] [logging.py:68:log_dist] [Rank 0] step=2500, skipped=0");
  REQUIRE(info.rank);
  CHECK(*info.rank == 0);
  CHECK(info.message == "step=2500, skipped=0");
  info = parsePrefixes("[2022-10-01 10:00:00,000] [INFO] [logging.py:68:log_dist] [Rank -1] DeepSpeed info: version=0.7.6");
  CHECK_FALSE(info.rank);
  CHECK(info.message == "DeepSpeed info: version=0.7.6");
}

TEST_CASE("glog c10d lines, old and new, with rank markers") {
  auto info = parsePrefixes(
      "[rank4]:[E321 02:07:08.414640780 ProcessGroupNCCL.cpp:607] [Rank 4] Watchdog caught collective operation timeout");
  REQUIRE(info.rank);
  CHECK(*info.rank == 4);
  CHECK(info.level == "ERROR");
  CHECK(info.timestamp == "321 02:07:08.414640780");
  CHECK(info.source == "ProcessGroupNCCL.cpp:607");
  CHECK(info.message == "Watchdog caught collective operation timeout");

  info = parsePrefixes("[E ProcessGroupNCCL.cpp:852] [Rank 2] NCCL watchdog thread terminated with exception");
  REQUIRE(info.rank);
  CHECK(*info.rank == 2);
  CHECK(info.timestamp.empty());

  info = parsePrefixes("[rank0]:[E321 02:07:08.46 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 0] Exception (either an error");
  REQUIRE(info.rank);
  CHECK(*info.rank == 0);
  CHECK(info.message == "Exception (either an error");

  info = parsePrefixes("[W socket.cpp:663] [c10d] The client socket has failed to connect");
  CHECK(info.level == "WARNING");
  CHECK_FALSE(info.rank);
}

TEST_CASE("newer process-group marker: the default group's rank is global, another group's is not") {
  const auto info = parsePrefixes("[PG ID 0 PG GUID 0(default_pg) Rank 3] Watchdog caught collective operation timeout");
  REQUIRE(info.rank);
  CHECK(*info.rank == 3);
  const auto sub = parsePrefixes("[PG ID 2 PG GUID 3 Rank 1] Process group watchdog thread terminated with exception");
  CHECK_FALSE(sub.rank);
  CHECK(sub.message == "Process group watchdog thread terminated with exception");
}

TEST_CASE("NCCL debug line: host, device index, level; the device is not a rank") {
  const auto info = parsePrefixes("node17-2:36748:36748 [0] NCCL INFO Using network IB");
  CHECK(info.host == "node17-2");
  REQUIRE(info.cudaDevice);
  CHECK(*info.cudaDevice == 0);
  CHECK_FALSE(info.rank);
  CHECK(info.level == "INFO");
  CHECK(info.message == "NCCL INFO Using network IB");
}

TEST_CASE("Python logging and torchrun's glog-style logger") {
  auto info = parsePrefixes(
      "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 438) of binary: x");
  CHECK(info.level == "ERROR");
  CHECK(info.source == "torch.distributed.elastic.multiprocessing.api");
  CHECK(info.message.substr(0, 6) == "failed");
  info = parsePrefixes("E0321 02:07:09.123000 140 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1)");
  CHECK(info.level == "ERROR");
  CHECK(info.source == "torch/distributed/elastic/multiprocessing/api.py:869");
  CHECK(info.message == "failed (exitcode: 1)");
}

TEST_CASE("plain lines pass through untouched") {
  for (const char* line : {"", "Traceback (most recent call last):", "{'loss': 0.1}", "[", "[rank]:", "[rank1]",
                           "    x = y[0]", "[1]:", "  rank      : 0 (local_rank: 0)"}) {
    const auto info = parsePrefixes(line);
    CHECK(info.message == line);
    CHECK_FALSE(info.rank);
  }
}

// One fixture per row of line_prefix_table.inc: each must be peeled by its own family.
TEST_CASE("every prefix family has a fixture that it peels") {
  const std::map<std::string, std::string> fixtures = {
      {"quote", "> [rank1]: RuntimeError: boom"},
      {"line-number", "[1042] [rank1]: RuntimeError: boom"},
      {"ray-actor", "(RayWorker pid=4121, ip=10.0.0.7) [rank1]: RuntimeError: boom"},
      {"metaflow-task", "2023-04-29 06:01:12.977 [177/train/578 (pid 28936)] [09c561ee-a44c-4795-967c-7183a83b3160] "
                        "OSError: [Errno 28] No space left on device"},
      {"nccl-debug", "gpu-node-3:2051:2301 [2] NCCL INFO Channel 00/24 : 0 1 2 3"},
      {"stream-tag", "stderr: [E ProcessGroupNCCL.cpp:821] [Rank 1] Watchdog caught collective operation timeout"},
      {"pdsh-host", "worker-5: [rank22]: RuntimeError: boom"},
      {"openmpi-tag", "[1,3]<stderr>:RuntimeError: boom"},
      {"mvapich-rank", "[gpu-node-2:mpi_rank_5][error_sighandler] Caught error: Segmentation fault (signal 11)"},
      {"cxx-what", "  what():  [PG ID 0 PG GUID 0(default_pg) Rank 2] Process group watchdog thread terminated"},
      {"deepspeed-logger", "[2024-02-03 11:48:17,107] [INFO] [launch.py:316:sigkill_handler] Killing subprocess 2"},
      {"bracket-timestamp", "[2024-11-20 14:37:16,123] [rank3]: RuntimeError: boom"},
      {"iso-timestamp", "2024-11-20T14:37:16.123Z [rank3]: RuntimeError: boom"},
      {"glog-plain", "I1120 14:37:16.123456 12345 torch/distributed/run.py:12] starting"},
      {"torch-rank", "[rank3]: RuntimeError: boom"},
      {"torchrun-role", "[default3]:RuntimeError: boom"},
      {"glog-bracket", "[E1120 14:37:16.123456 ProcessGroupNCCL.cpp:607] boom"},
      {"python-logging", "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1)"},
      {"hf-logger", "[INFO|trainer.py:1709] 2023-12-29 09:19:48,906 >> ***** Running training *****"},
      {"rich-log", "[09:51:08] WARNING  The following values were not passed            launch.py:698"},
      {"rank-marker", "[PG 1 Rank 3] Watchdog caught collective operation timeout"},
      {"group-rank-marker", "[PG ID 2 PG GUID 3 Rank 1] Process group watchdog thread terminated with exception"},
  };
  for (const auto& family : dsls::logs::prefixFamilies()) {
    CAPTURE(family.name);
    auto it = fixtures.find(std::string(family.name));
    REQUIRE_MESSAGE(it != fixtures.end(), "no fixture for this prefix family");
    const auto info = parsePrefixes(it->second);
    CHECK(std::find(info.families.begin(), info.families.end(), family.name) != info.families.end());
  }
}

TEST_CASE("timestamps before the rank tag, in the styles loggers use") {
  for (const char* line : {"2024-11-20 14:37:16 [rank3]: RuntimeError: boom",
                           "2024-11-20T14:37:16Z [rank3]: RuntimeError: boom",
                           "2024-11-20T14:37:16.123+01:00 [rank3]: RuntimeError: boom",
                           "2024-11-20 14:37:16,123 - INFO - [rank3]: RuntimeError: boom",
                           "[2024-11-20 14:37:16,123] [rank3]: RuntimeError: boom"}) {
    CAPTURE(line);
    const auto info = parsePrefixes(line);
    REQUIRE(info.rank);
    CHECK(*info.rank == 3);
    CHECK(info.rankSource == RankSource::Global);
    CHECK(info.rankFamily == "torch-rank");
    CHECK(info.timestamp.substr(0, 10) == "2024-11-20");
    CHECK(info.message == "RuntimeError: boom");
  }
}

TEST_CASE("stacked prefixes: pdsh host, timestamp and rank tag") {
  const auto info = parsePrefixes("node-2: 2024-11-20 14:37:16 [rank11]: Traceback (most recent call last):");
  CHECK(info.host == "node-2");
  REQUIRE(info.rank);
  CHECK(*info.rank == 11);
  CHECK(info.timestamp == "2024-11-20 14:37:16");
  CHECK(info.message == "Traceback (most recent call last):");
  // the host comes first: a later "word1: " is message text
  const auto later = parsePrefixes("[rank0]: step1: loss 0.5");
  CHECK(later.host.empty());
  CHECK(later.message == "step1: loss 0.5");
}

TEST_CASE("NCCL WARN lines with a source file keep it in the message; the device is not a rank") {
  const auto info = parsePrefixes("node17-2:36748:36790 [3] enqueue.cc:1556 NCCL WARN Cuda failure 'out of memory'");
  CHECK(info.host == "node17-2");
  REQUIRE(info.pid);
  CHECK(*info.pid == 36748);
  REQUIRE(info.cudaDevice);
  CHECK(*info.cudaDevice == 3);
  CHECK_FALSE(info.rank);
  CHECK(info.level == "WARN");
  CHECK(info.message == "enqueue.cc:1556 NCCL WARN Cuda failure 'out of memory'");
}

TEST_CASE("Ray actor prefixes give a pid and the node's address, not a rank") {
  auto info = parsePrefixes("(RayTrainWorker pid=2310, ip=172.31.4.5) Traceback (most recent call last):");
  REQUIRE(info.pid);
  CHECK(*info.pid == 2310);
  CHECK(info.host == "172.31.4.5");
  CHECK_FALSE(info.rank);
  CHECK(info.message == "Traceback (most recent call last):");
  info = parsePrefixes("(pid=77) KeyError: 'input_ids'");
  REQUIRE(info.pid);
  CHECK(info.message == "KeyError: 'input_ids'");
  info = parsePrefixes("(WorkerDict pid=9, ip=10.1.2.3) [rank5]: RuntimeError: x");
  REQUIRE(info.rank);
  CHECK(*info.rank == 5);
}

TEST_CASE("a test harness's stdout: and stderr: tags are peeled before the rest, and only there") {
  auto info = parsePrefixes("stderr: [E ProcessGroupNCCL.cpp:821] [Rank 1] Watchdog caught collective operation timeout");
  REQUIRE(info.rank);
  CHECK(*info.rank == 1);
  CHECK(info.message == "Watchdog caught collective operation timeout");
  info = parsePrefixes("stdout: [rank3]: RuntimeError: boom");
  REQUIRE(info.rank);
  CHECK(*info.rank == 3);
  CHECK(info.message == "RuntimeError: boom");
  // Not a tag: later in the line, another word, no space.
  CHECK(parsePrefixes("[rank3]: stderr: boom").message == "stderr: boom");
  CHECK(parsePrefixes("stdin: boom").message == "stdin: boom");
  CHECK(parsePrefixes("stderr:boom").message == "stderr:boom");
}

TEST_CASE("quoted pastes and reporters' line numbers are peeled") {
  auto info = parsePrefixes("> [rank2]: torch.OutOfMemoryError: CUDA out of memory.");
  REQUIRE(info.rank);
  CHECK(*info.rank == 2);
  info = parsePrefixes("[00123] [default1]:RuntimeError: boom");
  REQUIRE(info.localRank);
  CHECK(*info.localRank == 1);
  CHECK(info.message == "RuntimeError: boom");
}

TEST_CASE("glog with a thread id and one-letter levels") {
  const auto info = parsePrefixes("[rank0]:[W1120 14:37:16.123456 3151 ProcessGroupNCCL.cpp:1250] [PG 0 Rank 0] warn");
  CHECK(info.level == "WARNING");
  REQUIRE(info.rank);
  CHECK(*info.rank == 0);
  CHECK(info.message == "warn");
}

TEST_CASE("a rich boxed traceback ends in the exception line after the box") {
  const std::string box =
      "╭───────────────────── Traceback (most recent call last) ──────────────────────╮\n"
      "│ /opt/train.py:241 in launch_agent                                            │\n"
      "│                                                                              │\n"
      "│ ❱ 241 │   │   result = agent.run()                                           │\n"
      "╰──────────────────────────────────────────────────────────────────────────────╯\n"
      "Exception: expected value at line 1 column 1\n";
  auto r = dsls::logs::analyzeText(box);
  const auto* f = r.initiatingFinding();
  REQUIRE(f);
  CHECK(f->id == "python-exception");
  CHECK(f->title == "Uncaught Exception");
  // a paste that starts inside the box
  r = dsls::logs::analyzeText(box.substr(box.find("│")));
  REQUIRE(r.initiatingFinding());
  CHECK(r.initiatingFinding()->id == "python-exception");
}

TEST_CASE("transformers' logger header: level, caller and timestamp before \">>\"") {
  const auto info =
      parsePrefixes("[WARNING|modeling_utils.py:3950] 2024-05-01 10:02:03,114 >> Some weights were not used");
  CHECK(info.level == "WARNING");
  CHECK(info.source == "modeling_utils.py:3950");
  CHECK(info.timestamp == "2024-05-01 10:02:03,114");
  CHECK(info.message == "Some weights were not used");
  // Near misses: no timestamp, no caller line, another separator.
  for (const char* line : {"[INFO|trainer.py:1709] >> Running training", "[INFO|trainer] 2023-12-29 09:19:48,906 >> x",
                           "[INFO|trainer.py:1709] 2023-12-29 09:19:48,906 - x"}) {
    CAPTURE(line);
    CHECK(parsePrefixes(line).message == line);
  }
}

TEST_CASE("rich's log lines: the time column, or blanks in its place, then the level") {
  auto info = parsePrefixes("[09:51:08] WARNING  The following values were not passed            launch.py:698");
  CHECK(info.timestamp == "09:51:08");
  CHECK(info.level == "WARNING");
  CHECK(info.message == "The following values were not passed");
  CHECK(info.source == "launch.py:698");
  info = parsePrefixes("[12/01/24 09:51:08] ERROR    boom   api.py:12");
  CHECK(info.timestamp == "12/01/24 09:51:08");
  CHECK(info.message == "boom");
  info = parsePrefixes("14:45:42-103931 INFO     Start training LoRA Standard ...");
  CHECK(info.timestamp == "14:45:42-103931");
  CHECK(info.message == "Start training LoRA Standard ...");
  // The same second again: the time column is blank.
  info = parsePrefixes("           INFO     bucket 2: resolution (640, 384), count: 4     train_util.py:997");
  CHECK(info.level == "INFO");
  CHECK(info.timestamp.empty());
  CHECK(info.message == "bucket 2: resolution (640, 384), count: 4");
  CHECK(info.source == "train_util.py:997");
  // A date before the time is the iso-timestamp row's; the blanks after it are rich's.
  info = parsePrefixes("2025-05-29 16:18:26 INFO     make buckets      train_util.py:1010");
  CHECK(info.timestamp == "2025-05-29 16:18:26");
  CHECK(info.message == "make buckets      train_util.py:1010");
  // Near misses: indented code, a wrapped message, a time that is not a column, a level word in text.
  for (const char* line : {"    INFO = 1", "                             size automatically /",
                           "[09:51:08] training started", "at 09:51:08 INFO was printed",
                           "    raise ValueError(\"WARNING  x\")", "          INFO:root:x"}) {
    CAPTURE(line);
    const auto plain = parsePrefixes(line);
    CHECK(plain.message == line);
    CHECK(plain.level.empty());
  }
}

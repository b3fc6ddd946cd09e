#include <doctest/doctest.h>

#include "analysis/logs/line_prefix.h"

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

TEST_CASE("newer process-group marker") {
  const auto info = parsePrefixes("[PG ID 0 PG GUID 0(default_pg) Rank 3] Watchdog caught collective operation timeout");
  REQUIRE(info.rank);
  CHECK(*info.rank == 3);
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

// torch.multiprocessing.spawn's report of the process that ended first: the signal names the
// failure, the index is the initiating rank on one node, and the finding says it is spawn's index.
#include <doctest/doctest.h>

#include <string>

#include "log_test_support.h"

namespace {

using dsls::logs::testing::initiatingFinding;

std::string spawnTraceback(const std::string& lastLine) {
  return "Traceback (most recent call last):\n"
         "  File \"train.py\", line 40, in <module>\n"
         "    mp.spawn(main_worker, nprocs=4, args=(cfg,))\n"
         "  File \"/usr/lib/python3/site-packages/torch/multiprocessing/spawn.py\", line 130, in join\n"
         "    raise ProcessExitedException(\n" +
         lastLine + "\n";
}

}  // namespace

TEST_CASE("spawn's SIGKILL of process 3 is the host-memory kill on rank 3, read from spawn's index") {
  const auto report = dsls::logs::analyzeText(
      spawnTraceback("torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal SIGKILL"));
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "host-oom");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 3);
  CHECK(f->rankReason.find("torch.multiprocessing's report of process 3") != std::string::npos);
}

TEST_CASE("spawn's SIGSEGV is a segfault; an exit code is a worker exit") {
  const auto segv = dsls::logs::analyzeText(spawnTraceback("Exception: process 1 terminated with signal SIGSEGV"));
  const auto* s = initiatingFinding(segv);
  REQUIRE(s);
  CHECK(s->id == "segfault");
  REQUIRE(s->initiatingRank);
  CHECK(*s->initiatingRank == 1);
  const auto code = dsls::logs::analyzeText(spawnTraceback("Exception: process 2 terminated with exit code 1"));
  bool exit = false;
  for (const auto& f : code.findings) exit = exit || f.id == "worker-exit";
  CHECK(exit);
}

TEST_CASE("exit code 0 is no failure") {
  const auto report = dsls::logs::analyzeText("process 0 terminated with exit code 0\n");
  for (const auto& f : report.findings) CHECK(f.id != "worker-exit");
}

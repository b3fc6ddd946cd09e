// Launchers' reports of the processes that ended (OpenMPI, MPICH, Horovod, srun): the exit
// status or signal names the failure, and the first report names the initiating rank when the
// launcher numbers processes by global rank.
#include <doctest/doctest.h>

#include <string>

#include "log_test_support.h"

namespace {

using dsls::logs::RankScope;
using dsls::logs::testing::findingById;
using dsls::logs::testing::initiatingFinding;

}  // namespace

TEST_CASE("horovodrun's 'Process 0 exit with status code 137' is the host-memory kill on rank 0") {
  const auto report = dsls::logs::analyzeText("Process 0 exit with status code 137.\nProcess 1 exit with status code 1.\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "host-oom");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 0);
  CHECK(f->rankReason.find("Horovod's report of process 0") != std::string::npos);
  CHECK(f->mechanism.find("exit code 137 (128 + 9 (SIGKILL") != std::string::npos);
}

TEST_CASE("OpenMPI's 'first process to do so' block names MPI rank 3, and the exit is the initiating failure") {
  const auto report = dsls::logs::analyzeText(
      "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
      "the job to be terminated. The first process to do so was:\n"
      "\n"
      "  Process name: [[29973,1],3]\n"
      "  Exit code:    1\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "worker-exit");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 3);
  CHECK(f->rankReason.find("the MPI launcher's report of rank 3") != std::string::npos);
}

TEST_CASE("an 'Exit code:' line with no process name before it is nothing") {
  const auto report = dsls::logs::analyzeText("training done\n  Exit code:    1\n");
  CHECK(findingById(report, "worker-exit") == nullptr);
}

TEST_CASE("Horovod elastic's host[slot] names no rank") {
  const auto report = dsls::logs::analyzeText("Process name: elastic-test-worker-1[0]\nExit code: 137\n");
  const auto* f = findingById(report, "host-oom");
  REQUIRE(f);
  CHECK_FALSE(f->initiatingRank);
}

TEST_CASE("MPICH's banner: exit code 139 is a segfault; exit code 9 with its exit string is the kill, once") {
  const auto segv = dsls::logs::analyzeText(
      "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
      "=   PID 4774 RUNNING AT ws1\n"
      "=   EXIT CODE: 139\n");
  CHECK(findingById(segv, "segfault") != nullptr);
  const auto kill = dsls::logs::analyzeText(
      "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
      "=   PID 9665 RUNNING AT ws2\n"
      "=   EXIT CODE: 9\n"
      "=   CLEANING UP REMAINING PROCESSES\n"
      "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)\n");
  const auto* f = findingById(kill, "host-oom");
  REQUIRE(f);
  CHECK_FALSE(f->initiatingRank);
  CHECK(findingById(kill, "worker-exit") == nullptr);
}

TEST_CASE("srun: the first task that ended is the rank, the terminated ones are collateral") {
  const auto report = dsls::logs::analyzeText(
      "srun: error: node7: task 3: Killed\n"
      "srun: error: node7: tasks 0-2: Terminated\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "host-oom");
  REQUIRE(f->initiatingRank);
  CHECK(*f->initiatingRank == 3);
  CHECK(f->rankReason.find("srun's report of task 3") != std::string::npos);
  CHECK(f->collateralRanks == std::vector<int>{0, 1, 2});
}

TEST_CASE("srun: several tasks in one report have no single initiator") {
  const auto report = dsls::logs::analyzeText("srun: error: nid1: tasks 4-5,9: Aborted\n");
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK(f->id == "worker-exit");
  CHECK_FALSE(f->initiatingRank);
  REQUIRE(f->rankScope);
  CHECK(*f->rankScope == RankScope::Unknown);
  CHECK(f->scopeRanks == std::vector<int>{4, 5, 9});
}

TEST_CASE("srun's tasks are nodes when it started torchrun on each: no rank") {
  const auto report = dsls::logs::analyzeText(
      "WARNING:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 77) of binary: python\n"
      "srun: error: cn01: task 1: Exited with exit code 1\n");
  const auto* f = findingById(report, "worker-exit");
  REQUIRE(f);
  CHECK(f->rankReason.find("srun") == std::string::npos);
  const auto alone = dsls::logs::analyzeText(
      "Killing subprocess 77\n"
      "srun: error: cn01: task 1: Exited with exit code 1\n");
  const auto* g = findingById(alone, "worker-exit");
  REQUIRE(g);
  CHECK_FALSE(g->initiatingRank);
  CHECK(g->mechanism.find("a task is a node, not a rank") != std::string::npos);
}

TEST_CASE("torchrun's exit code 137 is 128 + SIGKILL") {
  const auto report = dsls::logs::analyzeText(
      "WARNING:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 137) local_rank: 2 (pid: 77) of binary: python\n");
  CHECK(findingById(report, "host-oom") != nullptr);
  CHECK(findingById(report, "worker-exit") == nullptr);
}

TEST_CASE("DeepSpeed-Chat's 'Step 1 exited with non-zero status 1' is a worker exit; mpirun without its rsh agent an MPI start failure") {
  const auto chat = dsls::logs::analyzeText("RuntimeError: Step 1 exited with non-zero status 1\n");
  const auto* f = findingById(chat, "worker-exit");
  REQUIRE(f);
  CHECK(f->mechanism.find("step 1 ended with exit code 1") != std::string::npos);
  const auto mpi = dsls::logs::analyzeText(
      "[718c7e141fd5:75498] [[INVALID],INVALID] FORCE-TERMINATE AT Not found:-13 - error plm_rsh_component.c(327)\n");
  CHECK(findingById(mpi, "mpi-init-failed") != nullptr);
}

TEST_CASE("fairseq's overflow lines are overflow skips, not the floor; its 'Minimum loss scale reached' is the floor") {
  const auto skips = dsls::logs::analyzeText(
      "| WARNING: overflow detected, setting loss scale to: 0.25\n"
      "| WARNING: overflow detected, setting loss scale to: 0.125\n");
  CHECK(findingById(skips, "fp16-overflow-skips") != nullptr);
  CHECK(findingById(skips, "fp16-loss-scale-floor") == nullptr);
  const auto floor = dsls::logs::analyzeText(
      "FloatingPointError: Minimum loss scale reached (0.0001). Your loss is probably exploding.\n");
  CHECK(findingById(floor, "fp16-loss-scale-floor") != nullptr);
}

// Per-process tags learned from the log itself (process_tags.h): srun --label's "2: ",
// Intel MPI's "[2] ", a wrapper's "rank-2| "; and the tokens that look like one and are not.
#include <doctest/doctest.h>

#include <string>

#include "analysis/logs/lines/process_tags.h"
#include "log_test_support.h"

using dsls::logs::ProcessTags;
using dsls::logs::tagCandidate;

namespace {

// Three ranks' start-up lines, rank 2's OOM and the others' timeouts, each line after `tag(rank)`.
template <typename Tag>
std::string threeRankOom(Tag tag) {
  std::string log;
  for (int r = 0; r < 3; ++r) log += tag(r) + "[2024-05-01 10:00:01,000] [INFO] [comm.py:637:init_distributed] cdb=None\n";
  log += tag(2) + "Traceback (most recent call last):\n";
  log += tag(2) + "  File \"train.py\", line 10, in <module>\n";
  log += tag(2) + "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  for (int r = 0; r < 2; ++r)
    log += tag(r) + "[E ProcessGroupNCCL.cpp:475] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, "
                    "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800123 milliseconds\n";
  return log;
}

using dsls::logs::testing::initiatingFinding;

}  // namespace

TEST_CASE("a tag candidate is one short token with one small number, before text") {
  auto t = tagCandidate("12: hello");
  REQUIRE(t);
  CHECK(t->process == 12);
  CHECK(t->shape == "#: ");
  CHECK(t->length == 4);
  CHECK(tagCandidate("[3] x")->shape == "[#] ");
  CHECK(tagCandidate("rank-7| x")->process == 7);
  CHECK_FALSE(tagCandidate("12:34:56 three digit runs"));
  CHECK_FALSE(tagCandidate("2024-05-01 a date"));
  CHECK_FALSE(tagCandidate("Epoch 3: a blank inside"));
  CHECK_FALSE(tagCandidate("[INFO] no digit"));
  CHECK_FALSE(tagCandidate("123456: six digits"));
  CHECK_FALSE(tagCandidate("3: "));  // nothing after it
  CHECK_FALSE(tagCandidate("step3 no end mark"));
  CHECK_FALSE(tagCandidate("a-very-long-token-with-a-number-7: x"));
}

TEST_CASE("tags are learned when several processes each print several lines") {
  ProcessTags tags;
  for (int i = 0; i < 3; ++i)
    for (int r = 0; r < 2; ++r) tags.observe(std::to_string(r) + ": line", false);
  auto m = tags.match("1: RuntimeError: boom");
  REQUIRE(m);
  CHECK(m->process == 1);
  CHECK_FALSE(tags.match("[1] other shape"));
}

TEST_CASE("a paste's climbing line numbers and a single process are not tags") {
  ProcessTags numbers;
  for (int i = 1; i <= 50; ++i) numbers.observe("[" + std::to_string(i) + "] line", false);
  CHECK(numbers.empty());
  ProcessTags one;
  for (int i = 0; i < 20; ++i) one.observe("0: line", false);
  CHECK(one.empty());
  ProcessTags known;  // the prefix table already read these lines' rank
  for (int i = 0; i < 10; ++i) known.observe(std::to_string(i % 2) + ": line", true);
  CHECK(known.empty());
}

TEST_CASE("srun --label and Intel MPI -l tags give the initiating rank, and the finding says how it was read") {
  using dsls::logs::analyzeText;
  for (const auto& log : {threeRankOom([](int r) { return std::to_string(r) + ": "; }),
                          threeRankOom([](int r) { return "[" + std::to_string(r) + "] "; })}) {
    const auto report = analyzeText(log);
    const auto* f = initiatingFinding(report);
    REQUIRE(f);
    CHECK(f->id == "cuda-oom");
    REQUIRE(f->initiatingRank);
    CHECK(*f->initiatingRank == 2);
    CHECK(f->rankReason.find("process tag") != std::string::npos);
    CHECK(f->collateralRanks == std::vector<int>{0, 1});
  }
}

TEST_CASE("without a learned tag the same log names no rank") {
  const auto report = dsls::logs::analyzeText(threeRankOom([](int) { return std::string(); }));
  const auto* f = initiatingFinding(report);
  REQUIRE(f);
  CHECK_FALSE(f->initiatingRank);
}

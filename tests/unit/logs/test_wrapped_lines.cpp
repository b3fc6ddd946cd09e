// Lines a terminal cut at its width, the rest printed on the next line without a prefix: the
// shapes of the openr1#620 and sglang#3368 excerpts, and near misses that must stay apart.
#include "log_test_support.h"

using namespace dsls::logs;
using namespace dsls::logs::testing;

namespace {

// openr1#620: cut at 150 columns inside "OpType".
const std::string kCutInsideToken =
    "[rank2]:[E424 01:11:21.160832730 ProcessGroupNCCL.cpp:629] [Rank 2] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum=4, OpTy\n"
    "pe=BROADCAST, NumelIn=112, NumelOut=112, Timeout(ms)=1800000) ran for 1800010 milliseconds before timing out.\n";

}  // namespace

TEST_CASE("a watchdog line cut inside a token is matched joined, with the prefix's rank and both lines as evidence") {
  const LogReport r = analyzeText(kCutInsideToken);
  INFO(findingIds(r));
  const LogFinding* timeout = findingById(r, "nccl-watchdog-timeout");
  REQUIRE(timeout);
  CHECK(timeout->collateralRanks == std::vector<int>{2});
  REQUIRE_FALSE(timeout->evidence.empty());
  CHECK(timeout->evidence.front().line == 1);
  CHECK(timeout->evidence.front().byteOffset == 0);
  CHECK(timeout->evidence.front().length == kCutInsideToken.size() - 1);
}

TEST_CASE("sglang#3368: a cut inside 'NumelOut' on the line after a blank one") {
  const std::string text =
      "\n[rank6]:[E207 01:29:36.730311765 ProcessGroupNCCL.cpp:616] [Rank 6] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, NumelIn=1, Nume\n"
      "lOut=1, Timeout(ms)=600000) ran for 600050 milliseconds before timing out.\n";
  const LogReport r = analyzeText(text);
  INFO(findingIds(r));
  const LogFinding* timeout = findingById(r, "nccl-watchdog-timeout");
  REQUIRE(timeout);
  CHECK(timeout->evidence.front().line == 2);
}

TEST_CASE("near misses: a next line with its own prefix, or indented, is not joined") {
  // Cut before "Timeout(ms)": the joined text would match, but the next line is not the rest.
  const std::string cut =
      "[rank2]:[E424 01:11:21.160832730 ProcessGroupNCCL.cpp:629] [Rank 2] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=4, OpType=BROADCAST, NumelIn=112, NumelOut=112, \n";
  const std::string rest = "Timeout(ms)=1800000) ran for 1800010 milliseconds before timing out.\n";
  REQUIRE(findingById(analyzeText(cut + rest), "nccl-watchdog-timeout"));
  // The next line is another rank's line.
  CHECK(findingById(analyzeText(cut + "[rank3]: " + rest), "nccl-watchdog-timeout") == nullptr);
  // An indented next line is a continuation of another kind (a traceback, a dict), not a cut.
  CHECK(findingById(analyzeText(cut + "    " + rest), "nccl-watchdog-timeout") == nullptr);
  // A short line is not taken for a cut one.
  CHECK(findingById(analyzeText("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=X, \n" + rest),
                    "nccl-watchdog-timeout") == nullptr);
  // Text that matches nothing joined stays unmatched.
  CHECK(analyzeText(std::string(100, 'a') + "\nbbbb\n").findings.empty());
}

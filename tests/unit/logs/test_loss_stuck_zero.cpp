// A logged loss of exactly 0.0 on consecutive HF Trainer metric lines: three lines, or two when
// grad_norm on them is NaN or repeats one value (llamafactory#9631); near misses stay quiet.
#include <fmt/format.h>

#include "log_test_support.h"

using namespace dsls::logs;
using namespace dsls::logs::testing;

namespace {

std::string metrics(const std::string& loss, const std::string& gradNorm, double epoch) {
  return fmt::format("{{'loss': {}, 'grad_norm': {}, 'learning_rate': 2e-05, 'epoch': {}}}\n", loss, gradNorm, epoch);
}

std::size_t stuckLines(const std::string& text) {
  const LogReport report = analyzeText(text);  // the finding points into it
  const LogFinding* f = findingById(report, "loss-stuck-zero");
  return f ? f->evidenceTotal : 0;
}

}  // namespace

TEST_CASE("two zero losses with a NaN grad_norm are stuck, with both lines as evidence") {
  const std::string text = metrics("0.8728", "nan", 0.01) + metrics("0.0", "nan", 0.02) + metrics("0.0", "nan", 0.03);
  const LogReport r = analyzeText(text);
  INFO(findingIds(r));
  const LogFinding* f = findingById(r, "loss-stuck-zero");
  REQUIRE(f);
  CHECK(f->evidenceTotal == 2);
  REQUIRE(f->evidence.size() == 2);
  CHECK(f->evidence[0].line == 2);
  CHECK(f->evidence[1].line == 3);
  CHECK(f->mechanism.find("two when grad_norm on them is NaN or repeats one value") != std::string::npos);
  CHECK(findingById(r, "nan-grad-norm"));
}

TEST_CASE("two zero losses with one repeated grad_norm are stuck; a third line extends the run") {
  CHECK(stuckLines(metrics("0.0", "0.0", 0.1) + metrics("0.0", "0.0", 0.2)) == 2);
  CHECK(stuckLines(metrics("0.0", "1.25", 0.1) + metrics("0.0", "1.25", 0.2) + metrics("0.0", "0.93", 0.3)) == 3);
  // a run after a non-zero loss is judged on its own lines
  CHECK(stuckLines(metrics("0.0", "0.52", 0.1) + metrics("0.0", "0.31", 0.2) + metrics("0.25", "0.8", 0.3) +
                   metrics("0.0", "nan", 0.4) + metrics("0.0", "nan", 0.5)) == 2);
}

TEST_CASE("near misses: zero losses that are not shown to be stuck") {
  // one zero loss, even with a NaN grad_norm
  CHECK(stuckLines(metrics("1.0446", "nan", 0.0) + metrics("0.0", "nan", 0.01)) == 0);
  // two zero losses whose grad_norm differs: a real, tiny loss rounded to 0.0
  CHECK(stuckLines(metrics("0.0", "0.5213", 0.1) + metrics("0.0", "0.3107", 0.2)) == 0);
  // NaN, then a finite grad_norm
  CHECK(stuckLines(metrics("0.0", "nan", 0.1) + metrics("0.0", "0.3107", 0.2)) == 0);
  // two zero losses without a grad_norm
  CHECK(stuckLines("{'loss': 0.0, 'learning_rate': 2e-05, 'epoch': 0.1}\n"
                   "{'loss': 0.0, 'learning_rate': 2e-05, 'epoch': 0.2}\n") == 0);
  // a run broken by a non-zero loss starts again
  CHECK(stuckLines(metrics("0.0", "nan", 0.1) + metrics("0.25", "nan", 0.2) + metrics("0.0", "nan", 0.3)) == 0);
}

TEST_CASE("llamafactory#9631: grad_norm NaN from the first step, then the loss at 0.0") {
  const LogReport r = analyzeText(readFixture("real/llamafactory9631-nan-from-step0.log"));
  INFO(findingIds(r));
  const LogFinding* nan = findingById(r, "nan-grad-norm");
  REQUIRE(nan);
  CHECK(nan->initiating);
  const LogFinding* zero = findingById(r, "loss-stuck-zero");
  REQUIRE(zero);
  CHECK(zero->evidenceTotal == 2);
  CHECK_FALSE(zero->initiatingRank);
}

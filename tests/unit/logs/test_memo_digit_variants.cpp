// The memos keyed by a line's bytes with its digits folded (prefix chains, metric layouts)
// give a fresh parse's answer whatever digits a line of the same shape holds: for every row
// of the prefix table and every metric shape, each digit run of a sample line is put in
// several forms (one digit, ten digits, leading zeros, a sign before it), and the line of
// each form is parsed through a memo that saw another form first.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/logs/analyzer_state.h"
#include "analysis/logs/lines/line_literals.h"
#include "analysis/logs/lines/line_prefix.h"
#include "tests/unit/logs/prefix_description.h"
#include "analysis/logs/lines/metrics_scan.h"

namespace {

std::string describe(const dsls::logs::PrefixView& v) { return dsls::logs::testing::describePrefix(v); }

// The forms a digit run is put in: lengths 1, 3 and 10, leading zeros, values either side of
// the range checks (2^30, the 12 digits a number may have), and a sign before the digits.
const std::vector<std::string> kDigitForms = {
    "0",          "1",          "9",   "007", "999",          "0000000000", "0000000001",
    "9999999999", "1073741824", "-0",  "-1",  "-9",           "-007",       "999999999999",
    "0000000000000",
};

// The line with its `run`-th run of digits replaced by `form` (a '-' right before the run is
// kept: the form's sign is added to it).
std::string withRun(const std::string& line, std::size_t run, const std::string& form) {
  std::string out;
  std::size_t seen = 0;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] < '0' || line[i] > '9') {
      out += line[i++];
      continue;
    }
    std::size_t end = i;
    while (end < line.size() && line[end] >= '0' && line[end] <= '9') ++end;
    out += seen++ == run ? form : line.substr(i, end - i);
    i = end;
  }
  return out;
}

std::size_t digitRuns(const std::string& line) {
  std::size_t runs = 0;
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i] >= '0' && line[i] <= '9' && (i == 0 || line[i - 1] < '0' || line[i - 1] > '9')) ++runs;
  return runs;
}

// A line each row of the prefix table matches, by the row's name; a row added to the table
// without one fails the test below.
const std::map<std::string, std::vector<std::string>>& prefixSamples() {
  static const std::map<std::string, std::vector<std::string>> samples = {
      {"quote", {"> step 12 done", "> [rank3]: x"}},
      {"line-number", {"[12] hello 3"}},
      {"ray-actor", {"(RayTrainWorker pid=12345, ip=10.0.0.1) hello", "(pid=42) [Rank 3] x"}},
      {"nccl-debug", {"node-3:1234:5678 [7] NCCL INFO Bootstrap : Using eth0", "gpu1:22:33 [0] init.cc:45 NCCL WARN x"}},
      {"metaflow-task", {"[run/train/3 (pid 42)] [0a1b2c3d-0000] hello", "[run1/train/3 (pid 42)] x"}},
      {"stream-tag", {"stdout: [rank1]: hello", "stderr: worker-2: x"}},
      {"pdsh-host", {"worker-5: hello", "10.0.0.12: [rank3]: x"}},
      {"openmpi-tag", {"[1,3]<stdout>:hello", "2021-04-07 22:13:55 [12,40]<stderr>: x"}},
      {"mvapich-rank", {"[node7:mpi_rank_12][error_sighandler] x", "[n1:mpi_rank_3] y"}},
      {"cxx-what", {"  what():  [Rank 2] x", "what(): hello 3"}},
      {"deepspeed-logger", {"[2024-05-01 00:03:02,274] [INFO] [logging.py:96:log_dist] [Rank 3] hello"}},
      {"bracket-timestamp", {"[2024-05-01T00:03:02.274+01:00] hello", "[2024-05-01 00:03:02] [rank2]: x"}},
      {"iso-timestamp", {"2024-05-01 00:03:02,274 - INFO - hello", "2024-05-01T00:03:02Z [rank5]: x"}},
      {"glog-plain", {"I0501 00:03:02.274000 12345 ProcessGroupNCCL.cpp:607] hello"}},
      {"torch-rank", {"[rank3]: hello", "[rank12]:[Rank 12] x"}},
      {"torchrun-role", {"[default3]:hello", "[trainer12]:[rank12]: x"}},
      {"glog-bracket", {"[I501 10:00:00.000000 123 ProcessGroupNCCL.cpp:607] [Rank 3] hello", "[W socket.cpp:12] x"}},
      {"python-logging", {"INFO:torch.distributed:hello 5", "WARNING:root:[Rank 2] x"}},
      {"hf-logger", {"[INFO|trainer.py:1709] 2023-12-29 09:19:48,906 >> hello"}},
      {"rich-log", {"[09:51:08] WARNING  message 12   api.py:698", "[05/01/24 09:51:08] INFO     x"}},
      {"group-rank-marker", {"[PG ID 2 PG GUID 3 Rank 1] x", "[PG ID 12 PG GUID 30(tp_group) Rank 7] y"}},
      {"rank-marker", {"[Rank 3] hello", "[PG 1 Rank 3] x", "[PG ID 0 PG GUID 0(default_pg) Rank 3] y", "[Rank -1] z"}},
  };
  return samples;
}

// Every pair of forms of each digit run, each order: the memo sees `first` (three times, so
// that every memo has it), then `second`, whose parse must be the fresh one.
template <typename Fresh, typename Memoised>
std::size_t checkEveryPair(const std::string& sample, Fresh fresh, Memoised memoised) {
  std::size_t pairs = 0;
  for (std::size_t run = 0; run < digitRuns(sample); ++run)
    for (const std::string& a : kDigitForms)
      for (const std::string& b : kDigitForms) {
        if (a == b) continue;
        const std::string first = withRun(sample, run, a), second = withRun(sample, run, b);
        const std::string got = memoised(first, second), want = fresh(second);
        CHECK_MESSAGE(got == want, "after \"", first, "\": \"", second, "\"");
        ++pairs;
      }
  return pairs;
}

}  // namespace

TEST_CASE("every prefix row parses a line through a memo that saw other digits as it parses it afresh") {
  const auto& table = dsls::logs::prefixFamilies();
  std::size_t pairs = 0;
  for (std::size_t row = 0; row < table.size(); ++row) {
    const std::string name(table[row].name);
    const auto samples = prefixSamples().find(name);
    REQUIRE_MESSAGE(samples != prefixSamples().end(), "no sample line for the prefix row ", name);
    for (const std::string& sample : samples->second) {
      CHECK_MESSAGE((dsls::logs::parsePrefixView(sample).familyMask & (1u << row)) != 0, name, ": ", sample);
      pairs += checkEveryPair(
          sample, [](const std::string& line) { return describe(dsls::logs::parsePrefixView(line)); },
          [](const std::string& first, const std::string& second) {
            const auto memo = std::make_unique<dsls::logs::PrefixMemo>();  // too large for the stack
            for (int again = 0; again < 3; ++again) dsls::logs::parsePrefixView(first, memo.get());
            return describe(dsls::logs::parsePrefixView(second, memo.get()));
          });
    }
  }
  CHECK(pairs > 10000);
}

TEST_CASE("a signed rank is not read again from a line with other digits") {
  // "-0" is rank 0 and "-1" no rank: the two lines fold alike but parse differently.
  const auto memo = std::make_unique<dsls::logs::PrefixMemo>();
  dsls::logs::parsePrefixView("[Rank -0] hello", memo.get());
  CHECK_FALSE(dsls::logs::parsePrefixView("[Rank -1] hello", memo.get()).rank);
  const auto other = std::make_unique<dsls::logs::PrefixMemo>();
  dsls::logs::parsePrefixView("[Rank -1] hello", other.get());
  CHECK(dsls::logs::parsePrefixView("[Rank -0] hello", other.get()).rank == 0);
}

TEST_CASE("every metric shape reads a message through a layout of other digits as it reads it afresh") {
  // The shapes scanMetrics reads: HF Trainer dicts, "loss = x", "grad norm: x", a name twice.
  const std::vector<std::string> samples = {
      "{'loss': 2.0420, 'grad_norm': 1.5, 'learning_rate': 1e-05, 'epoch': 0.01}",
      "{'loss': 1e-05, 'grad_norm': 3.25e+02}",
      "{\"loss\": 0.5, \"grad_norm\": 12}",
      "step 10 loss = 2.5",
      "loss: 1e5 loss: 0.25",
      "loss=1.5e3, grad_norm=7",
      "iteration 3 | lm loss: 4.2E+00 | grad norm: 1.0 |",
      "grad_norm: 2.5e10 grad norm: 0.5",
  };
  std::size_t pairs = 0;
  for (const std::string& sample : samples)
    pairs += checkEveryPair(
        sample,
        [](const std::string& msg) {
          dsls::logs::NumericsState n;
          return dsls::logs::detail::describeMetricValues(n, msg, dsls::logs::scanLineLiterals(msg));
        },
        [](const std::string& first, const std::string& second) {
          dsls::logs::NumericsState n;
          dsls::logs::LineLiteralMemo literals;
          for (int again = 0; again < 3; ++again)
            dsls::logs::detail::describeMetricValues(n, first, literals.scan(first));
          return dsls::logs::detail::describeMetricValues(n, second, literals.scan(second));
        });
  CHECK(pairs > 3000);
}

TEST_CASE("a loss out of range leaves no layout for messages of its shape") {
  dsls::logs::NumericsState n;
  dsls::logs::LineLiteralMemo literals;
  dsls::logs::detail::describeMetricValues(n, "{'loss': 1e999}", literals.scan("{'loss': 1e999}"));
  CHECK(dsls::logs::detail::describeMetricValues(n, "{'loss': 0e000}", literals.scan("{'loss': 0e000}")) ==
        "loss=0,0,0e000;norm=-");
}

// One row that tells digits apart without a needed literal to gate it would turn the folding
// off for every log: each line with a timestamp in its prefix would be parsed afresh.
TEST_CASE("the prefix memo folds digits: no row of the table tells digits apart ungated") {
  CHECK(dsls::logs::prefixMemoFoldsDigits());
}

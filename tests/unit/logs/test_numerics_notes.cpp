// The run-specific notes on NaN / zero-loss findings read the shared overlap_comm race table
// (analysis/facts): the releases and flags they name must follow it.
#include <doctest/doctest.h>

#include <string>

#include "analysis/logs/diagnosis/numerics_notes.h"

using dsls::analysis::Version;
using dsls::logs::numericsNotes;
using dsls::logs::RunConfig;

namespace {

RunConfig zero2(const char* deepspeed) {
  RunConfig run;
  run.zeroStage = 2;
  run.overlapComm = true;
  if (deepspeed) {
    run.deepspeed = Version::parse(deepspeed);
    run.deepspeedText = deepspeed;
  }
  return run;
}

std::string text(const RunConfig& run) {
  std::string out;
  for (const auto& n : numericsNotes(run).notes) out += n + "\n";
  return out;
}

bool has(const std::string& haystack, const char* needle) { return haystack.find(needle) != std::string::npos; }

}  // namespace

TEST_CASE("unknown DeepSpeed version: every fix release of the table, in order") {
  const std::string t = text(zero2(nullptr));
  INFO(t);
  CHECK(has(t, "the known races were fixed in 0.14.3, 0.17.5, 0.19.0 and 0.19.3 (torch.compile)."));
}

TEST_CASE("an affected release names the races open in it") {
  std::string t = text(zero2("0.14.0"));
  CHECK(has(t, "DeepSpeed 0.14.0 predates the fix for reduction buffers being recycled while still in use (0.19.0) "
               "and the missing wait before a bucket is reused (0.14.3)."));
  t = text(zero2("0.17.3"));
  CHECK(has(t, "DeepSpeed 0.17.3 predates the fix for reduction buffers being recycled while still in use (0.19.0) "
               "and has the ping-pong buffer index bug (0.17.2 to 0.17.4)."));
  t = text(zero2("0.19.1"));
  CHECK(has(t, "DeepSpeed 0.19.1 still has the race that appears under torch.compile (fixed in 0.19.3)."));
  CHECK(numericsNotes(zero2("0.19.1")).ruleCodes == std::vector<std::string>{"overlap-comm-race"});
}

TEST_CASE("contiguous_gradients off leaves only the allocator race") {
  RunConfig run = zero2("0.14.0");
  run.contiguousGradients = false;
  std::string t = text(run);
  CHECK(has(t, "DeepSpeed 0.14.0 predates the fix for reduction buffers being recycled while still in use (0.19.0)."));
  CHECK_FALSE(has(t, "missing wait"));
  run = zero2("0.19.1");
  run.contiguousGradients = false;
  t = text(run);
  CHECK(has(t, "has none of the known overlap_comm races"));
  CHECK(numericsNotes(run).ruleCodes.empty());
}

TEST_CASE("releases outside the table's ranges") {
  CHECK(has(text(zero2("0.19.3")), "contains every known fix for the overlap_comm races (the last in 0.19.3)"));
  const std::string old = text(zero2("0.7.6"));
  CHECK(has(old, "the documented overlap_comm races start with DeepSpeed 0.8.0 and this run has DeepSpeed 0.7.6"));
  RunConfig zero1 = zero2("0.12.6");
  zero1.zeroStage = 1;
  CHECK(has(text(zero1), "ZeRO-1 ignored overlap_comm before DeepSpeed 0.13.0"));
}

TEST_CASE("ZeRO-3: PyTorch 2.10+ with DeepSpeed before 0.18.8, whatever contiguous_gradients is") {
  RunConfig run = zero2("0.18.7");
  run.zeroStage = 3;
  run.torch = Version::parse("2.10.0");
  run.torchText = "2.10.0";
  run.contiguousGradients = false;
  const std::string t = text(run);
  CHECK(has(t, "ZeRO-3 with overlap_comm on PyTorch 2.10.0: DeepSpeed before 0.18.8"));
  run.torch = Version::parse("2.9.1");
  CHECK(has(text(run), "needs PyTorch 2.10 or newer with DeepSpeed before 0.18.8, which this run does not show."));
}

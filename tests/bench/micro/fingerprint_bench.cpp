// The log fingerprint matcher (prefilter + RE2::Set) per line, and the whole analyser per byte.
#include "analysis/logs/analyze.h"
#include "analysis/logs/fingerprints/fingerprints.h"
#include "tests/bench/micro/bench_inputs.h"

#include <benchmark/benchmark.h>

namespace {

using dsls::logs::FingerprintMatcher;

void matchLine(benchmark::State& state, const std::string& line) {
  const auto& matcher = FingerprintMatcher::shared();
  std::vector<dsls::logs::FpMatch> out;
  for (auto _ : state) benchmark::DoNotOptimize(matcher.match(line, out));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(line.size()));
}

void BM_Fingerprint_OrdinaryLine(benchmark::State& state) {
  matchLine(state, "worker-1: [rank5]: {'loss': 2.3456, 'grad_norm': 0.8123, 'learning_rate': 2.0000e-04, "
                   "'epoch': 0.0123}");
}

void BM_Fingerprint_WatchdogLine(benchmark::State& state) {
  matchLine(state, "[rank3]:[E501 12:00:00.123456 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective "
                   "operation timeout: WorkNCCL(SeqNum=4521, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, "
                   "Timeout(ms)=1800000) ran for 1800437 milliseconds before timing out.");
}

// A line that carries a prefilter literal but matches no pattern: the RE2::Set pass runs for nothing.
void BM_Fingerprint_NearMiss(benchmark::State& state) {
  matchLine(state, "worker-0: [INFO] the NCCL error counter is 0 and no out of memory event was seen (type=ok)");
}

void BM_Fingerprint_MixedLog(benchmark::State& state) {
  const auto& lines = dsls::bench::trainingLogLines();
  const auto& matcher = FingerprintMatcher::shared();
  std::vector<dsls::logs::FpMatch> out;
  int64_t bytes = 0;
  for (auto _ : state)
    for (const auto& line : lines) {
      benchmark::DoNotOptimize(matcher.match(line, out));
      bytes += static_cast<int64_t>(line.size()) + 1;
    }
  state.SetBytesProcessed(bytes);
}

void BM_LogAnalyzer_WholeText(benchmark::State& state) {
  const std::string& text = dsls::bench::trainingLogText();
  for (auto _ : state) {
    auto report = dsls::logs::analyzeText(text);
    benchmark::DoNotOptimize(report);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
}

}  // namespace

BENCHMARK(BM_Fingerprint_OrdinaryLine);
BENCHMARK(BM_Fingerprint_WatchdogLine);
BENCHMARK(BM_Fingerprint_NearMiss);
BENCHMARK(BM_Fingerprint_MixedLog)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LogAnalyzer_WholeText)->Unit(benchmark::kMillisecond);

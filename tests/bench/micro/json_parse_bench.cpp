// The positioned JSON parser (analysis/json) on a typical config and on a 5 MB one.
#include "analysis/json/document.h"
#include "tests/bench/micro/bench_inputs.h"

#include <benchmark/benchmark.h>

namespace {

void parseText(benchmark::State& state, const std::string& text) {
  for (auto _ : state) {
    auto doc = dsls::json::parse(text);
    benchmark::DoNotOptimize(doc.root);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
}

void BM_JsonParse_Config3KB(benchmark::State& state) { parseText(state, dsls::bench::config3k()); }
void BM_JsonParse_Config5MB(benchmark::State& state) { parseText(state, dsls::bench::config5m()); }

// A half-typed config: error recovery is on the editing path, not an exception.
void BM_JsonParse_Broken3KB(benchmark::State& state) {
  std::string text = dsls::bench::config3k();
  for (std::size_t i = text.size() / 3; i < text.size(); i += 97) text[i] = ' ';  // drops commas, quotes, braces
  parseText(state, text);
}

}  // namespace

BENCHMARK(BM_JsonParse_Config3KB);
BENCHMARK(BM_JsonParse_Broken3KB);
BENCHMARK(BM_JsonParse_Config5MB)->Unit(benchmark::kMillisecond);

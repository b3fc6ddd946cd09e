// Every config rule plus a completion on a 3 KB config and on one with 10,000 unknown keys of
// long names (the unknown-key suggestions compare each against the catalog).
#include "analysis/config/config_analysis.h"
#include "analysis/config/config_features.h"
#include "tests/bench/micro/bench_inputs.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

std::string thousandsOfUnknownKeys() {
  std::string text = "{\"zero_optimization\": {\"stage\": 2";
  for (int i = 0; i < 5000; ++i) text += ",\"overlap_comm_typo_number_" + std::to_string(i) + std::string(60, 'x') + "\": 1";
  text += "}";
  for (int i = 0; i < 5000; ++i) text += ",\"train_batch_sizes_" + std::to_string(i) + "\": \"auto\"";
  return text + "}";
}

void analyseAndComplete(benchmark::State& state, const std::string& text) {
  dsls::analysis::Settings settings;
  settings.launcher = dsls::analysis::Launcher::DeepSpeed;
  settings.deepspeedVersion = "0.16.0";
  settings.worldSize = 8;
  for (auto _ : state) {
    dsls::analysis::ConfigAnalysis a(text, settings);
    benchmark::DoNotOptimize(dsls::config::complete(a, text.size() / 2, true));
  }
}

void BM_Config_Rules3KB(benchmark::State& state) { analyseAndComplete(state, dsls::bench::config3k()); }
void BM_Config_ThousandsOfUnknownKeys(benchmark::State& state) {
  static const std::string text = thousandsOfUnknownKeys();
  analyseAndComplete(state, text);
}

}  // namespace

BENCHMARK(BM_Config_Rules3KB)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Config_ThousandsOfUnknownKeys)->Unit(benchmark::kMillisecond);

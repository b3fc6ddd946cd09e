// The catalog's first use: reading its embedded TOML files (analysis/catalog/keys) into the
// KeyInfo and SectionInfo tables, which the registry does once per process.
#include "analysis/catalog/catalog_data.h"

#include <benchmark/benchmark.h>

namespace {

using namespace dsls::catalog;

void BM_Catalog_ReadEmbeddedFiles(benchmark::State& state) {
  std::size_t bytes = 0;
  for (const data::File& file : data::embeddedFiles()) bytes += file.text.size();
  for (auto _ : state) {
    data::Catalog catalog = data::read(data::embeddedFiles());
    benchmark::DoNotOptimize(catalog.keys.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}

}  // namespace

BENCHMARK(BM_Catalog_ReadEmbeddedFiles)->Unit(benchmark::kMillisecond);

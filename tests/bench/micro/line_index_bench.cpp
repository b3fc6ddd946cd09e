// protocol::LineIndex: building it for a document, and converting positions both ways.
#include "protocol/line_index.h"
#include "tests/bench/micro/bench_inputs.h"

#include <benchmark/benchmark.h>

#include <random>

namespace {

using dsls::protocol::LineIndex;
using dsls::protocol::PositionEncoding;

void BM_LineIndex_Build5MB(benchmark::State& state) {
  const std::string& text = dsls::bench::config5m();
  for (auto _ : state) {
    LineIndex index(text);
    benchmark::DoNotOptimize(index.lineCount());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
}

// Non-ASCII text, so UTF-16 conversion has to count code units rather than bytes.
const std::string& mixedText() {
  static const std::string text = [] {
    std::string out;
    for (int i = 0; i < 20000; ++i) out += "    \"name_\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\": \"value " + std::to_string(i) + "\",\n";
    return out;
  }();
  return text;
}

void BM_LineIndex_OffsetToPosition(benchmark::State& state) {
  const std::string& text = mixedText();
  LineIndex index(text);
  const auto encoding = static_cast<PositionEncoding>(state.range(0));
  std::mt19937_64 rng(7);
  std::vector<std::size_t> offsets(4096);
  for (auto& o : offsets) o = rng() % text.size();
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(index.position(offsets[i++ % offsets.size()], encoding));
  state.SetLabel(std::string(dsls::protocol::encodingName(encoding)));
}

void BM_LineIndex_PositionToOffset(benchmark::State& state) {
  const std::string& text = mixedText();
  LineIndex index(text);
  const auto encoding = static_cast<PositionEncoding>(state.range(0));
  std::mt19937_64 rng(11);
  std::vector<dsls::protocol::Position> positions(4096);
  for (auto& p : positions)
    p = {static_cast<std::uint32_t>(rng() % index.lineCount()), static_cast<std::uint32_t>(rng() % 40)};
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(index.offset(positions[i++ % positions.size()], encoding));
  state.SetLabel(std::string(dsls::protocol::encodingName(encoding)));
}

}  // namespace

BENCHMARK(BM_LineIndex_Build5MB)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LineIndex_OffsetToPosition)->Arg(static_cast<int>(PositionEncoding::Utf8))
    ->Arg(static_cast<int>(PositionEncoding::Utf16));
BENCHMARK(BM_LineIndex_PositionToOffset)->Arg(static_cast<int>(PositionEncoding::Utf8))
    ->Arg(static_cast<int>(PositionEncoding::Utf16));

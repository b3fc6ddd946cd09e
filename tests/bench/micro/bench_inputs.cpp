#include "tests/bench/micro/bench_inputs.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dsls::bench {
namespace {

std::string readFixture() {
  std::ifstream in(DSLS_BENCH_FIXTURES "/bench_ds_config.json", std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " DSLS_BENCH_FIXTURES "/bench_ds_config.json");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

const std::string& config3k() {
  static const std::string text = readFixture();
  return text;
}

const std::string& config5m() {
  // The same shape as lsp_bench.py's big file: the config plus one 5 MB array.
  static const std::string text = [] {
    const std::string& base = config3k();
    std::string out = base.substr(0, base.rfind('}'));
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    out += ",\n    \"train_data_manifest\": [\n";
    for (int i = 0; out.size() < (5u << 20); ++i)
      out += fmt::format(
          "        {{\"shard\": {}, \"path\": \"s3://corpus/tokenized/shard-{:06}.bin\", \"num_samples\": {}, "
          "\"tokens\": {}, \"checksum\": \"{:032x}\"}},\n",
          i, i, 4096 + i % 977, 8388608 + i * 13, static_cast<unsigned>(i) * 2654435761u);
    out.resize(out.size() - 2);
    out += "\n    ]\n}\n";
    return out;
  }();
  return text;
}

const std::vector<std::string>& trainingLogLines() {
  static const std::vector<std::string> lines = [] {
    std::vector<std::string> out;
    for (int step = 0; step < 2000; ++step) {
      out.push_back(fmt::format("worker-0: [2024-05-01 01:{:02}:{:02},123] [INFO] [logging.py:96:log_dist] [Rank 0] "
                                "step={}, skipped=0, lr=[2.000000e-04], mom=[(0.9, 0.95)]",
                                step / 60 % 60, step % 60, step));
      for (int r = 0; r < 8; ++r)
        out.push_back(fmt::format("worker-{}: [rank{}]: {{'loss': 2.{:04}, 'grad_norm': 0.{:04}, "
                                  "'learning_rate': 2.0000e-04, 'epoch': 0.{:04}}}",
                                  r / 4, r, (step * 31 + r) % 10000, (step * 13 + r) % 10000, step));
      if (step % 500 == 499)
        out.push_back("worker-0: [2024-05-01 01:00:00,123] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] "
                      "OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768");
    }
    return out;
  }();
  return lines;
}

const std::string& trainingLogText() {
  static const std::string text = [] {
    std::string out;
    for (const auto& line : trainingLogLines()) out += line + "\n";
    return out;
  }();
  return text;
}

}  // namespace dsls::bench

// Bad or huge input never crashes or stalls the rules or completion.
#include <doctest/doctest.h>

#include "analysis/config/config_features.h"
#include "analysis/facts/rule_id.h"
#include "tests/unit/config/config_test_support.h"

#include <algorithm>
#include <vector>

using namespace dsls;

namespace {

// Runs the rules and a completion in the middle; how long that takes is measured in
// tests/bench (BM_Config_ThousandsOfUnknownKeys), not here.
std::vector<analysis::Finding> analyseAndComplete(const std::string& text, const analysis::Settings& settings = {}) {
  analysis::ConfigAnalysis a(text, settings);
  (void)config::complete(a, text.size() / 2, true);
  return a.findings();
}

std::size_t countCode(const std::vector<analysis::Finding>& findings, config::RuleId id) {
  return static_cast<std::size_t>(std::count_if(findings.begin(), findings.end(),
                                                [&](const analysis::Finding& f) { return f.code == config::ruleCode(id); }));
}

}  // namespace

TEST_CASE("thousands of unknown keys with long names stay fast") {
  std::string text = "{\"zero_optimization\": {\"stage\": 2";
  for (int i = 0; i < 5000; ++i) text += ",\"overlap_comm_typo_number_" + std::to_string(i) + std::string(60, 'x') + "\": 1";
  text += "}";
  for (int i = 0; i < 5000; ++i) text += ",\"train_batch_sizes_" + std::to_string(i) + "\": \"auto\"";
  text += "}";
  analysis::Settings s;
  s.launcher = dsls::analysis::Launcher::DeepSpeed;
  s.deepspeedVersion = "0.16.0";
  s.worldSize = 8;
  const auto findings = analyseAndComplete(text, s);
  // Every unknown key inside zero_optimization is reported; the top-level ones too.
  CHECK(countCode(findings, config::RuleId::UnknownKey) == 10000);
}

TEST_CASE("deep nesting, odd values and truncated text") {
  std::string deep;
  for (int i = 0; i < 3000; ++i) deep += "{\"zero_optimization\": ";
  CHECK(countCode(analyseAndComplete(deep), config::RuleId::JsonSyntax) >= 1);

  for (std::string text :
       {"", "null", "[]", "\"auto\"", "{\"zero_optimization\": null}", "{\"zero_optimization\": [1, 2]}",
        "{\"zero_optimization\": {\"stage\": 1e400}}", "{\"zero_optimization\": {\"stage\": -3}}",
        "{\"train_batch_size\": 1e300, \"train_micro_batch_size_per_gpu\": 3, \"gradient_accumulation_steps\": 7}",
        "{\"train_batch_size\": 0, \"train_micro_batch_size_per_gpu\": 0}", "{\"fp16\": true, \"bf16\": \"yes\"}",
        "{\"optimizer\": {\"type\": \"\", \"params\": null}, \"scheduler\": {\"type\": 5}}",
        "{\"zero_optimization\": {\"offload_optimizer\": {\"device\": \"nvme\", \"ratio\": \"x\"}}}",
        "{\"bf16\": {\"loss_scale\": 0,,}, \"aio\": {\"thread_count\":", "{\"\\u0000\": 1, \"\": {\"\": \"auto\"}}",
        "{\"elasticity\": {\"enabled\": true}, \"train_batch_size\": \"auto\"}"}) {
    INFO(text);
    for (auto launcher : {analysis::Launcher::Unknown, analysis::Launcher::HfTrainer, analysis::Launcher::Accelerate,
                          analysis::Launcher::DeepSpeed}) {
      analysis::Settings s;
      s.launcher = launcher;
      s.worldSize = 3;
      CHECK_NOTHROW(analysis::ConfigAnalysis(text, s));
      analysis::ConfigAnalysis a(text, s);
      for (std::size_t at = 0; at <= text.size(); ++at) CHECK_NOTHROW(config::complete(a, at, true));
    }
  }
}

// An integer no int holds (a fuzzer's "stage": 41e9) is no stage, and no divisor of the batch.
TEST_CASE("integers beyond an int are read as no value, not converted") {
  analysis::ConfigAnalysis a(R"({"zero_optimization": {"stage": 41e9, "overlap_comm": true},
                                 "train_batch_size": 8, "tensor_parallel": {"autotp_size": 1e300}})",
                             analysis::Settings{});
  CHECK_FALSE(a.model().zero.stage.value.has_value());
  CHECK(a.model().zero.stage.why.find("outside DeepSpeed's stages") != std::string::npos);
  (void)analyseAndComplete(R"({"zero_optimization": {"stage": -9e18}, "train_micro_batch_size_per_gpu": 1e19})");
}

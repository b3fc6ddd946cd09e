// Completion in ds_configs: keys of the enclosing section, values, and section snippets.
// The cursor is written as '|' in the test text.
#include <doctest/doctest.h>

#include "analysis/config/config_features.h"
#include "tests/unit/config/config_test_support.h"

using namespace dsls;
using analysis::CompletionInfo;

namespace {

struct Completed {
  std::string text;
  std::vector<CompletionInfo> items;
};

Completed completeAt(std::string withCursor, bool snippets = true, analysis::Settings settings = {}) {
  std::size_t at = withCursor.find('|');
  REQUIRE(at != std::string::npos);
  withCursor.erase(at, 1);
  analysis::ConfigAnalysis a(withCursor, settings);
  return {withCursor, config::complete(a, at, snippets)};
}

const CompletionInfo* item(const std::vector<CompletionInfo>& items, std::string_view label) {
  for (const auto& i : items)
    if (i.label == label) return &i;
  return nullptr;
}

std::string applied(const Completed& c, const CompletionInfo& i) {
  return test::applyEdits(c.text, {{i.replace, i.insertText}});
}

}  // namespace

TEST_CASE("keys of zero_optimization, without the ones already present") {
  auto c = completeAt("{\n  \"zero_optimization\": {\n    \"stage\": 2,\n    |\n  }\n}\n", false);
  REQUIRE(item(c.items, "overlap_comm"));
  CHECK(item(c.items, "stage") == nullptr);
  const CompletionInfo* rb = item(c.items, "reduce_bucket_size");
  REQUIRE(rb);
  CHECK(rb->insertText == "\"reduce_bucket_size\": 500000000");
  CHECK(rb->documentation.find("Default: `500000000`") != std::string::npos);
  // A stage 3 key at stage 2 sorts after the keys that apply, and says why.
  const CompletionInfo* s3 = item(c.items, "stage3_max_live_parameters");
  REQUIRE(s3);
  CHECK(s3->sortText > rb->sortText);
  CHECK(s3->documentation.find("Used only at ZeRO stage 3; this file uses stage 2") != std::string::npos);
  // An alias of a present key is left out too.
  auto c2 = completeAt("{\"zero_optimization\": {\"stage\": 3, \"prefetch_bucket_size\": 10, |}}", false);
  CHECK(item(c2.items, "stage3_prefetch_bucket_size") == nullptr);
}

TEST_CASE("keys as snippets with choices, and a comma when another member follows") {
  auto c = completeAt("{\n  \"zero_optimization\": {\n    |\n    \"stage\": 2\n  }\n}\n", true);
  const CompletionInfo* oc = item(c.items, "overlap_comm");
  REQUIRE(oc);
  CHECK(oc->isSnippet);
  CHECK(oc->insertText == "\"overlap_comm\": ${1|false,true|},");
  const CompletionInfo* off = item(c.items, "offload_optimizer");
  REQUIRE(off);
  CHECK(off->insertText == "\"offload_optimizer\": {$1},");
  auto plain = completeAt("{\n  \"zero_optimization\": {\n    |\n    \"stage\": 2\n  }\n}\n", false);
  CHECK(item(plain.items, "overlap_comm")->insertText == "\"overlap_comm\": false,");
  CHECK_FALSE(item(plain.items, "overlap_comm")->isSnippet);
}

TEST_CASE("the default shown is the one of the target release") {
  analysis::Settings old;
  old.deepspeedVersion = "0.18.0";
  auto c = completeAt("{|}", false, old);
  const CompletionInfo* gc = item(c.items, "gradient_clipping");
  REQUIRE(gc);
  CHECK(gc->insertText == "\"gradient_clipping\": 0.0");
  CHECK(gc->documentation.find("Default in DeepSpeed 0.18.0: `0.0`") != std::string::npos);
  analysis::Settings recent;
  recent.deepspeedVersion = "0.19.3";
  CHECK(item(completeAt("{|}", false, recent).items, "gradient_clipping")->insertText == "\"gradient_clipping\": 1.0");
}

TEST_CASE("keys the target release does not have sort last and say so") {
  analysis::Settings s;
  s.deepspeedVersion = "0.9.5";
  auto c = completeAt("{\"zero_optimization\": {\"stage\": 3, |}}", false, s);
  const CompletionInfo* hpz = item(c.items, "zero_hpz_partition_size");
  REQUIRE(hpz);
  CHECK(hpz->detail == "not in DeepSpeed 0.9.5");
  CHECK(hpz->sortText[0] == 'y');
  const CompletionInfo* dep = item(c.items, "cpu_offload");
  REQUIRE(dep);
  CHECK(dep->deprecated);
  CHECK(dep->sortText[0] == 'z');
}

TEST_CASE("typing inside a key replaces only the key") {
  auto c = completeAt("{\"zero_optimization\": {\"ove|\": true}}", true);
  const CompletionInfo* oc = item(c.items, "overlap_comm");
  REQUIRE(oc);
  CHECK(oc->insertText == "\"overlap_comm\"");
  CHECK(applied(c, *oc) == "{\"zero_optimization\": {\"overlap_comm\": true}}");
}

TEST_CASE("values: enums, booleans, and \"auto\" where HF Trainer or Accelerate fill it") {
  auto stage = completeAt("{\"zero_optimization\": {\"stage\": |}}");
  std::vector<std::string> labels;
  for (const auto& i : stage.items) labels.push_back(i.label);
  CHECK(labels == std::vector<std::string>{"0", "1", "2", "3", "\"auto\""});
  CHECK(item(stage.items, "0")->detail == "default");
  CHECK(applied(stage, *item(stage.items, "3")) == "{\"zero_optimization\": {\"stage\": 3}}");

  auto device = completeAt("{\"zero_optimization\": {\"offload_param\": {\"device\": \"c|\"}}}");
  REQUIRE(item(device.items, "\"cpu\""));
  CHECK(applied(device, *item(device.items, "\"cpu\"")) == "{\"zero_optimization\": {\"offload_param\": {\"device\": \"cpu\"}}}");

  auto flag = completeAt("{\"zero_optimization\": {\"contiguous_gradients\": |}}");
  CHECK(item(flag.items, "true"));
  CHECK(item(flag.items, "false"));
  CHECK(item(flag.items, "\"auto\"") == nullptr);  // nobody fills it

  auto micro = completeAt("{\"train_micro_batch_size_per_gpu\": |}");
  REQUIRE(item(micro.items, "\"auto\""));
  CHECK(item(micro.items, "\"auto\"")->detail.find("HF Trainer and Accelerate") != std::string::npos);

  // A genuine DeepSpeed "auto" is offered as well.
  CHECK(item(completeAt("{\"pipeline\": {\"stages\": |}}").items, "\"auto\""));
}

TEST_CASE("no value items inside an object value; key items there instead") {
  auto c = completeAt("{\"zero_optimization\": { | }}");
  CHECK(item(c.items, "stage"));
  CHECK(item(c.items, "true") == nullptr);
}

TEST_CASE("section snippets at the top level, as snippets or plain text") {
  auto c = completeAt("{\n  \"train_batch_size\": 8,\n  |\n}\n", true);
  const CompletionInfo* z3 = item(c.items, "zero_optimization: ZeRO-3 with CPU offload");
  REQUIRE(z3);
  CHECK(z3->kind == CompletionInfo::Kind::Snippet);
  CHECK(z3->isSnippet);
  CHECK(z3->insertText.find("\"offload_param\": {\"device\": \"${3|cpu,nvme,none|}\"") != std::string::npos);
  CHECK(z3->insertText.find("\"reduce_bucket_size\": ${5:500000000}") != std::string::npos);
  CHECK(item(c.items, "fp16: mixed precision with dynamic loss scaling"));
  CHECK(item(c.items, "bf16: bfloat16 mixed precision"));
  CHECK(item(c.items, "optimizer: AdamW"));

  auto plain = completeAt("{\n  \"train_batch_size\": 8,\n  |\n}\n", false);
  const CompletionInfo* fp16 = item(plain.items, "fp16: mixed precision with dynamic loss scaling");
  REQUIRE(fp16);
  CHECK_FALSE(fp16->isSnippet);
  std::string result = applied(plain, *fp16);
  CHECK(result ==
        "{\n  \"train_batch_size\": 8,\n  \"fp16\": {\n    \"enabled\": true,\n    \"loss_scale\": 0,\n"
        "    \"initial_scale_power\": 16,\n    \"loss_scale_window\": 1000,\n    \"hysteresis\": 2,\n"
        "    \"min_loss_scale\": 1\n  }\n}\n");
  // The inserted section is valid JSON and raises no finding of its own.
  analysis::ConfigAnalysis after(result, {});
  CHECK(after.document().errors.empty());
  CHECK(after.findings().empty());
}

TEST_CASE("snippets follow the launcher and the target release, and skip present sections") {
  analysis::Settings hf;
  hf.launcher = analysis::Launcher::HfTrainer;
  hf.deepspeedVersion = "0.18.0";
  auto c = completeAt("{\n  \"fp16\": {\"enabled\": false},\n  |\n}\n", false, hf);
  CHECK(item(c.items, "fp16: mixed precision with dynamic loss scaling") == nullptr);
  const CompletionInfo* opt = item(c.items, "optimizer: AdamW");
  REQUIRE(opt);
  CHECK(opt->insertText.find("\"lr\": \"auto\"") != std::string::npos);
  const CompletionInfo* bf16 = item(c.items, "bf16: bfloat16 mixed precision");
  REQUIRE(bf16);
  CHECK(bf16->insertText.find("\"enabled\": \"auto\"") != std::string::npos);
  CHECK(bf16->insertText.find("\"check_grad_overflow\": true") != std::string::npos);
  // Unknown release: check_grad_overflow would be rejected before 0.17.1, so it is left out.
  auto unknown = completeAt("{|}", false);
  CHECK(item(unknown.items, "bf16: bfloat16 mixed precision")->insertText.find("check_grad_overflow") ==
        std::string::npos);
  // Not inside a section.
  auto inner = completeAt("{\"zero_optimization\": {|}}");
  CHECK(item(inner.items, "fp16: mixed precision with dynamic loss scaling") == nullptr);
}

TEST_CASE("every inserted ZeRO-3 snippet parses and passes the rules") {
  for (bool snippets : {false}) {
    auto c = completeAt("{\n  \"train_micro_batch_size_per_gpu\": 1,\n  |\n}\n", snippets);
    for (const auto& i : c.items) {
      if (i.kind != CompletionInfo::Kind::Snippet) continue;
      std::string result = applied(c, i);
      analysis::ConfigAnalysis after(result, {});
      INFO(i.label << "\n" << result);
      CHECK(after.document().errors.empty());
      for (const auto& f : after.findings()) {
        INFO(f.code << ": " << f.message);
        CHECK(f.severity != analysis::Severity::Error);
      }
    }
  }
}

TEST_CASE("completion on broken or empty text does not fail") {
  for (std::string text : {"|", "{|", "{\"zero_optimization\": {\"stage\": |", "[|]", "{\"a\": [1, |]}", "{\"\": |}"}) {
    INFO(text);
    CHECK_NOTHROW(completeAt(text));
  }
}

#include <doctest/doctest.h>

#include <string>

#include "analysis/catalog/catalog.h"

using namespace dsls::catalog;

namespace {
Version V(const char* s) { return *Version::parse(s); }
}  // namespace

TEST_CASE("findKey finds canonical paths") {
  const KeyInfo* k = findKey("zero_optimization.offload_optimizer.device");
  REQUIRE(k);
  CHECK(k->path == "zero_optimization.offload_optimizer.device");
  CHECK(k->defaultValue == "\"none\"");
  CHECK(k->allowed.size() == 3);
  REQUIRE(findKey("fp16.enabled"));
  CHECK(findKey("fp16.enabled")->types == Bool);
  REQUIRE(findKey("train_batch_size"));
  CHECK_FALSE(findKey("zero_optimization.no_such_key"));
  CHECK_FALSE(findKey("no_such_section.enabled"));
}

TEST_CASE("findKey resolves stage3_ aliases in both directions") {
  const KeyInfo* prefixed = findKey("zero_optimization.stage3_prefetch_bucket_size");
  const KeyInfo* plain = findKey("zero_optimization.prefetch_bucket_size");
  REQUIRE(prefixed);
  CHECK(prefixed == plain);
  CHECK(plain->path == "zero_optimization.stage3_prefetch_bucket_size");
  CHECK(findKey("zero_optimization.gather_16bit_weights_on_model_save") ==
        findKey("zero_optimization.stage3_gather_16bit_weights_on_model_save"));
  CHECK(findKey("zero_optimization.max_live_parameters")->path == "zero_optimization.stage3_max_live_parameters");
  // An alias is only valid in its own section.
  CHECK_FALSE(findKey("prefetch_bucket_size"));
  CHECK_FALSE(findKey("fp16.prefetch_bucket_size"));
}

TEST_CASE("bfloat16 is an alias section of bf16") {
  const SectionInfo* legacy = findSection("bfloat16");
  REQUIRE(legacy);
  CHECK(legacy->aliasOf == "bf16");
  CHECK(legacy->strict);
  CHECK(findKey("bfloat16.enabled") == findKey("bf16.enabled"));
  CHECK(findKey("bfloat16.enabled")->path == "bf16.enabled");
  CHECK_FALSE(findKey("bfloat16.loss_scale"));  // strict bf16 rejects fp16-only keys
  // The top-level key itself is a deprecated spelling.
  REQUIRE(findKey("bfloat16"));
  CHECK(findKey("bfloat16")->deprecatedBy == "bf16");
  CHECK(childrenOf("bfloat16").size() == childrenOf("bf16").size());
}

TEST_CASE("intermediate aliases and wildcard sections resolve") {
  CHECK(findKey("tensor_parallel.tp.tp_size") == findKey("tensor_parallel.tensor_parallel.tp_size"));
  CHECK(findSection("tensor_parallel.tp") == findSection("tensor_parallel.tensor_parallel"));
  const KeyInfo* metric =
      findKey("data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.seqlen.difficulty_type");
  REQUIRE(metric);
  CHECK(metric->path == "data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.*.difficulty_type");
  REQUIRE(findSection("data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.vocab.schedule_config"));
  CHECK(findSection("data_efficiency.data_sampling.curriculum_learning.curriculum_metrics")->openKeys);
}

TEST_CASE("findSection reports strictness per the DeepSpeed parsing regimes") {
  REQUIRE(findSection(""));
  CHECK_FALSE(findSection("")->strict);
  CHECK(findSection("zero_optimization")->strict);
  CHECK(findSection("zero_optimization")->strictSince == "0.7.0");
  CHECK(findSection("fp16")->strictSince == "0.17.1");
  CHECK(findSection("bf16")->strictSince == "0.17.1");
  CHECK(findSection("zero_optimization.offload_param")->strict);
  CHECK(findSection("tensorboard")->strict);
  CHECK(findSection("comms_logger")->strict);
  CHECK(findSection("timers.throughput")->strict);
  CHECK_FALSE(findSection("aio")->strict);
  CHECK_FALSE(findSection("activation_checkpointing")->strict);
  CHECK(findSection("optimizer.params")->openKeys);
  CHECK(findSection("pipeline")->openKeys);
  CHECK(findSection("amp")->openKeys);
  CHECK_FALSE(findSection("zero_optimization.stage"));  // a key, not a section

  CHECK_FALSE(strictIn(*findSection("fp16"), V("0.17.0")));
  CHECK(strictIn(*findSection("fp16"), V("0.17.1")));
  CHECK_FALSE(strictIn(*findSection("zero_optimization"), V("0.6.7")));
  CHECK(strictIn(*findSection("zero_optimization"), V("0.7.0")));
  CHECK_FALSE(strictIn(*findSection("aio"), V("0.19.5")));
}

TEST_CASE("childrenOf lists direct children only") {
  auto zero = childrenOf("zero_optimization");
  bool hasStage = false, hasNested = false;
  for (const KeyInfo* k : zero) {
    if (k->path == "zero_optimization.stage") hasStage = true;
    if (k->path == "zero_optimization.offload_optimizer.device") hasNested = true;
  }
  CHECK(hasStage);
  CHECK_FALSE(hasNested);
  CHECK(zero.size() > 40);
  auto top = childrenOf("");
  bool hasFp16 = false;
  for (const KeyInfo* k : top) hasFp16 = hasFp16 || k->path == "fp16";
  CHECK(hasFp16);
  CHECK(childrenOf("no_such_section").empty());
}

TEST_CASE("version-dependent defaults follow the reference") {
  const KeyInfo& clip = *findKey("gradient_clipping");
  CHECK(defaultAt(clip, V("0.14.0")) == "0.0");
  CHECK(defaultAt(clip, V("0.19.2")) == "0.0");
  CHECK(defaultAt(clip, V("0.19.3")) == "1.0");
  CHECK(clip.defaultValue == "1.0");

  const KeyInfo& spp = *findKey("steps_per_print");
  CHECK(defaultAt(spp, V("0.15.1")) == "10");
  CHECK(defaultAt(spp, V("0.15.2")) == "null");

  const KeyInfo& overflow = *findKey("bf16.check_grad_overflow");
  CHECK(overflow.since == "0.17.1");
  CHECK(defaultAt(overflow, V("0.19.2")) == "false");
  CHECK(defaultAt(overflow, V("0.19.3")) == "true");
  CHECK_FALSE(availableIn(overflow, V("0.17.0")));

  const KeyInfo& immediate = *findKey("bf16.immediate_grad_update");
  CHECK(defaultAt(immediate, V("0.16.4")) == "false");
  CHECK(defaultAt(immediate, V("0.16.5")) == "true");
  CHECK(defaultAt(immediate, V("0.17.1")) == "false");

  for (const char* path : {"zero_optimization.offload_param.pin_memory", "zero_optimization.offload_optimizer.pin_memory"}) {
    CAPTURE(path);
    CHECK(defaultAt(*findKey(path), V("0.19.4")) == "false");
    CHECK(defaultAt(*findKey(path), V("0.19.5")) == "true");
  }

  const KeyInfo& contiguous = *findKey("zero_optimization.contiguous_gradients");
  CHECK(defaultAt(contiguous, V("0.4.2")) == "false");
  CHECK(defaultAt(contiguous, V("0.4.3")) == "true");

  const KeyInfo& overlap = *findKey("zero_optimization.overlap_comm");
  CHECK(overlap.defaultValue.empty());
  CHECK(overlap.defaultNote.find("stage 3") != std::string_view::npos);
}

TEST_CASE("availability, deprecation and auto facts") {
  for (const char* path : {"zero_optimization.zero_hpz_partition_size", "zero_optimization.zero_quantized_weights",
                           "zero_optimization.zero_quantized_gradients"}) {
    CAPTURE(path);
    CHECK(findKey(path)->since == "0.10.0");
    CHECK_FALSE(availableIn(*findKey(path), V("0.9.5")));
    CHECK(availableIn(*findKey(path), V("0.10.0")));
  }
  const KeyInfo& threads = *findKey("aio.thread_count");
  CHECK(threads.deprecatedBy == "aio.intra_op_parallelism");
  CHECK(threads.deprecatedSince == "0.16.4");
  CHECK(findKey("zero_optimization.cpu_offload")->deprecatedBy == "zero_optimization.offload_optimizer");
  CHECK(findKey("zero_optimization.stage3_gather_fp16_weights_on_model_save")->deprecatedSince == "0.6.0");
  CHECK_FALSE(availableIn(*findKey("fp16.fused_mode"), V("0.17.1")));
  const KeyInfo& elastic = *findKey("zero_optimization.elastic_checkpoint");
  CHECK(elastic.deprecatedSince == "0.19.3");
  CHECK(elastic.deprecatedStages == std::vector<int>{3});
  CHECK(findKey("sparse_attention")->removedAfter == "0.19.5");

  CHECK(findKey("train_micro_batch_size_per_gpu")->autoFill == AutoFill::HfAndAccelerate);
  CHECK(findKey("optimizer.params.lr")->autoFill == AutoFill::HfTrainer);
  CHECK(findKey("zero_optimization.stage")->autoFill == AutoFill::Accelerate);
  CHECK(findKey("pipeline.stages")->autoFill == AutoFill::DeepSpeedNative);
  CHECK(findKey("zero_optimization.sub_group_size")->autoFill == AutoFill::None);
}

TEST_CASE("keysNamed finds keys written at the wrong level") {
  auto rr = keysNamed("round_robin_gradients");
  REQUIRE(rr.size() == 1);
  CHECK(rr[0]->path == "zero_optimization.round_robin_gradients");
  auto aio = keysNamed("aio");
  REQUIRE(aio.size() == 1);
  CHECK(aio[0]->path == "aio");
  CHECK(keysNamed("prefetch_bucket_size").size() == 1);  // through the alias
  CHECK(keysNamed("").empty());
}

TEST_CASE("lookups never crash on odd input") {
  const char* odd[] = {"", ".", "..", "...", "a..b", "zero_optimization.", ".stage", "*", "*.*", "zero_optimization.*",
                       "\xff\xfe\x00", "zero_optimization.stage.extra.more"};
  for (const char* text : odd) {
    CAPTURE(text);
    (void)findKey(text);
    (void)findSection(text);
    (void)childrenOf(text);
    (void)suggest(text, text);
    (void)keysNamed(text);
  }
  std::string huge(100000, 'a');
  CHECK_FALSE(findKey(huge));
  CHECK(suggest("zero_optimization", huge).empty());
  CHECK_FALSE(findKey("zero_optimization.stage.extra"));
}

// Top-level scalar keys: batch size, logging, communication and the rest that
// DeepSpeed reads with get_scalar_param (lenient: no type check, unknown keys
// ignored). Sources: deepspeed/runtime/constants.py and config.py (master and
// tags as cited in /work/shared/reference/deepspeed-config-keys.md, sections 2,
// 3.3, 4, 7, 8, 10), docs/_pages/config-json.md.
#include "analysis/catalog/catalog_tables.h"

namespace dsls::catalog::tables {

namespace {

// batch size (reference section 2)
std::span<const KeyInfo> batchSizeKeys() {
  static const KeyInfo keys[] = {
      {.path = "train_batch_size",
       .types = kInt,
       .defaultNote = "derived: train_micro_batch_size_per_gpu * gradient_accumulation_steps * data-parallel size",
       .autoFill = AutoFill::HfAndAccelerate,
       .doc = "Global batch size: samples consumed by one optimizer step across all data-parallel ranks. "
              "It must equal micro batch * accumulation steps * data-parallel size; give any two and DeepSpeed derives the third.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#batch-size-related-parameters"},
      {.path = "train_micro_batch_size_per_gpu",
       .types = kInt,
       .defaultNote = "derived from train_batch_size / gradient_accumulation_steps / data-parallel size (integer division)",
       .autoFill = AutoFill::HfAndAccelerate,
       .doc = "Samples one GPU processes in a single forward/backward pass, before gradient accumulation.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#batch-size-related-parameters"},
      {.path = "gradient_accumulation_steps",
       .types = kInt,
       .defaultNote = "derived from the two other batch keys; 1 when only one of them is given",
       .autoFill = AutoFill::HfAndAccelerate,
       .doc = "Micro-batches whose gradients are accumulated before each optimizer step.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#batch-size-related-parameters"},
      {.path = "managed_gradient_accumulation",
       .types = kBool,
       .defaultValue = "true",
       .doc = "When true DeepSpeed tracks micro-steps and steps the optimizer only at the accumulation boundary. "
              "When false the caller decides when step() applies an update; that mode rejects pipeline parallelism, "
              "DeepCompile and Apex AMP, and allows overlap_comm only with ZeRO stage 2.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#batch-size-related-parameters",
       .versionNote = "added in 2026 in a 0.19.x release; the exact release was not verified"},
  };
  return keys;
}

// gradient clipping (reference sections 4, 7.3)
std::span<const KeyInfo> gradientClippingKeys() {
  static const KeyInfo keys[] = {
      {.path = "gradient_clipping",
       .types = kNum,
       .defaultValue = "1.0",
       .defaultChanges = {{"", "0.0"}, {"0.19.3", "1.0"}},
       .autoFill = AutoFill::HfAndAccelerate,
       .doc = "Clip the global gradient norm to this value; 0 disables clipping. "
              "The default was 0.0 (off) in every release before 0.19.3 even though the documentation said 1.0.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#gradient-clipping"},
  };
  return keys;
}

// logging
std::span<const KeyInfo> loggingKeys() {
  static const KeyInfo keys[] = {
      {.path = "steps_per_print",
       .types = kInt | kNull,
       .defaultValue = "null",
       .defaultNote = "no periodic progress line since 0.15.2; Accelerate sets it to infinity",
       .defaultChanges = {{"", "10"}, {"0.15.2", "null"}},
       .doc = "Print a progress line (step, skipped steps, learning rate, momentum) every N optimizer steps. "
              "Before 0.15.2 the default was 10; since then nothing is printed unless you set it.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#logging"},
      {.path = "wall_clock_breakdown",
       .types = kBool,
       .defaultValue = "false",
       .defaultNote = "also turned on by flops_profiler.enabled",
       .doc = "Time forward, backward and optimizer step separately and report the breakdown.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#logging"},
      {.path = "dump_state",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Print the DeepSpeed engine state after initialisation.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#logging"},
      {.path = "memory_breakdown",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Report device memory use at points of the training step.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#logging"},
      {.path = "log_level",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Logging level for DeepSpeed's own logger; null keeps the library default.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#logging",
       .versionNote = "read by recent releases only; the release that added it was not verified"},
      {.path = "disable_python_gc",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.19.6",
       .doc = "Turn off Python's automatic cyclic garbage collection while the engine lives (one collection runs "
              "after initialisation); call engine.collect_python_gc() at safe points if your code creates cycles.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#python-cyclic-garbage-collection",
       .versionNote = "on DeepSpeed master after 0.19.5; 0.19.6 is the earliest release that can have it"},
  };
  return keys;
}

// communication (reference section 3.3)
std::span<const KeyInfo> communicationKeys() {
  static const KeyInfo keys[] = {
      {.path = "communication_data_type",
       .types = kStr | kNull,
       .allowed = {"\"fp16\"", "\"bf16\"", "\"fp32\""},
       .defaultValue = "null",
       .defaultNote = "null: fp16 if fp16.enabled, else bf16 if bf16.enabled, else fp32",
       .doc = "Data type used for gradient all-reduce. When unset it follows the enabled precision mode; "
              "other strings raise \"Invalid communication_data_type\".",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#communication-options",
       .caseInsensitive = true},
      {.path = "seq_parallel_communication_data_type",
       .types = kStr | kNull,
       .allowed = {"\"fp16\"", "\"bf16\"", "\"fp32\""},
       .defaultValue = "\"fp32\"",
       .doc = "Data type for gradient communication under sequence parallelism.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#communication-options",
       .caseInsensitive = true,
       .versionNote = "older releases read the spelling seq_parallel_comm_data_type instead; the release of the "
                      "rename was not verified"},
      // Older constants.py mapped SEQ_PARALLEL_COMMUNICATION_DATA_TYPE to this spelling (checked in a
      // 0.16-era source); newer ones read the long spelling. Rename release not verified.
      {.path = "seq_parallel_comm_data_type",
       .types = kStr | kNull,
       .allowed = {"\"fp16\"", "\"bf16\"", "\"fp32\""},
       .defaultValue = "\"fp32\"",
       .deprecatedBy = "seq_parallel_communication_data_type",
       .doc = "Earlier spelling of seq_parallel_communication_data_type, read by older releases and ignored by newer ones.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#communication-options",
       .caseInsensitive = true,
       .versionNote = "release of the rename not verified"},
      {.path = "gradient_allreduce_op",
       .types = kStr,
       .allowed = {"\"mean\"", "\"sum\""},
       .defaultValue = "\"mean\"",
       .doc = "\"mean\" averages gradients over data-parallel ranks, \"sum\" keeps the unscaled sum. "
              "\"sum\" is rejected with ZeRO stage 3, ZenFlow and DeepCompile.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#communication-options",
       .caseInsensitive = true,
       .versionNote = "added in 2026 in a 0.19.x release; the exact release was not verified"},
      {.path = "prescale_gradients",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Scale gradients before the all-reduce instead of after. Not supported with ZeRO-2, or ZeRO-3 with "
              "reduce_scatter (the default): DeepSpeed asserts.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#communication-options"},
      {.path = "gradient_predivide_factor",
       .types = kNum,
       .defaultValue = "1.0",
       .doc = "Divide gradients by this factor before the all-reduce, which can help fp16 stability on many GPUs. "
              "Values other than 1.0 assert with ZeRO-2, or ZeRO-3 with reduce_scatter.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#communication-options"},
      {.path = "sparse_gradients",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Reduce torch.nn.Embedding gradients in sparse (CSR) form. Removed on DeepSpeed master after 0.19.5: "
              "the key is then rejected (embeddings built with sparse=True are still reduced sparsely).",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#communication-options",
       .removedAfter = "0.19.5"},
      // Only in early documentation; not read by the releases checked (0.16 onwards). Not verified further.
      {.path = "fp32_allreduce",
       .types = kBool,
       .defaultValue = "false",
       .deprecatedBy = "communication_data_type",
       .doc = "Early option to all-reduce in fp32. Current releases do not read it; use communication_data_type: \"fp32\".",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#communication-options",
       .versionNote = "release that stopped reading it not verified"},
      {.path = "disable_allgather",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Read into the config object but not documented; its effect was not verified.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#communication-options"},
      {.path = "graph_harvesting",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Capture short kernel sequences into device graphs. Removed on DeepSpeed master after 0.19.5, where the key is rejected.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/",
       .removedAfter = "0.19.5"},
  };
  return keys;
}

// optimizer guard rails (reference section 4)
std::span<const KeyInfo> optimizerGuardRailsKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_allow_untested_optimizer",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Allow ZeRO with a client optimizer that DeepSpeed has not tested; without it such optimizers assert. "
              "HF Trainer sets it to true when it builds the optimizer.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#optimizer-parameters"},
      {.path = "zero_force_ds_cpu_optimizer",
       .types = kBool,
       .defaultValue = "true",
       .doc = "With ZeRO-Offload, require DeepSpeed's CPU optimizer; set false to use a client optimizer on CPU.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#optimizer-parameters"},
  };
  return keys;
}

// misc
std::span<const KeyInfo> miscKeys() {
  static const KeyInfo keys[] = {
      {.path = "dataloader_drop_last",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Drop the last incomplete batch in dataloaders built by deepspeed.initialize.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/"},
      {.path = "vocabulary_size",
       .types = kInt | kNull,
       .defaultValue = "null",
       .doc = "Model vocabulary size, used only to warn when it is not a multiple of 8 (poor tensor-core use).",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/"},
      {.path = "use_data_before_expert_parallelism",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Order data-parallel groups before expert-parallel groups when building the MoE process topology.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/"},
      {.path = "sequence_parallel_size",
       .types = kInt,
       .doc = "Sequence-parallel degree. DeepSpeed reads it only to size the data-parallel group when no mpu is passed "
              "(the HF zero.init path).",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/"},
      {.path = "allgather_size",
       .types = kInt,
       .defaultValue = "500000000",
       .deprecatedBy = "zero_optimization.allgather_bucket_size",
       .doc = "Bucket size used only with the legacy form \"zero_optimization\": true; the object form reads "
              "zero_optimization.allgather_bucket_size instead.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/#zero-optimizations-for-fp16-training"},
  };
  return keys;
}

}  // namespace

Group topLevel() {
  static const SectionInfo sections[] = {
      {.path = "",
       .strict = false,
       .doc = "The DeepSpeed configuration. Top-level keys are read leniently: unknown keys are ignored and values are "
              "not type-checked until used.",
       .docsUrl = "https://www.deepspeed.ai/docs/config-json/"},
  };
  return {{batchSizeKeys(), gradientClippingKeys(), loggingKeys(), communicationKeys(), optimizerGuardRailsKeys(),
           miscKeys()},
          sections};
}

}  // namespace dsls::catalog::tables

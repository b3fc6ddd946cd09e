// zero_optimization and its sub-objects. Strict (pydantic extra="forbid") since
// 0.7.0. Sources: deepspeed/runtime/zero/config.py, offload_config.py,
// leaf_module_config.py, zenflow/zenflow_config.py; reference sections 5, 6,
// 7.1, 7.2, 9, 10, 12; overlap-comm-race.md.
#include "analysis/catalog/catalog_tables.h"

namespace dsls::catalog::tables {

namespace {
constexpr const char* kZeroUrl = "https://www.deepspeed.ai/docs/config-json/#zero-optimizations-for-fp16-training";
constexpr const char* kParamOffloadUrl = "https://www.deepspeed.ai/docs/config-json/#parameter-offloading";
constexpr const char* kOptOffloadUrl = "https://www.deepspeed.ai/docs/config-json/#optimizer-offloading";

// stage, buckets and communication
std::span<const KeyInfo> stageBucketsAndCommunicationKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization",
       .types = kObj | kBool,
       .doc = "ZeRO memory optimisations. The legacy boolean form (true = stage 1, reading top-level allgather_size) "
              "still parses but logs a deprecation warning; use an object with \"stage\".",
       .docsUrl = kZeroUrl},

      {.path = "zero_optimization.stage",
       .types = kInt,
       .allowed = {"0", "1", "2", "3"},
       .defaultValue = "0",
       .autoFill = AutoFill::Accelerate,
       .doc = "ZeRO stage: 0 off, 1 partitions optimizer states, 2 also gradients, 3 also parameters. "
              "HF Trainer does not fill \"auto\" here, so under Trainer an \"auto\" stage is dropped and becomes 0.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.overlap_comm",
       .types = kBool | kNull,
       .defaultNote = "true at stage 3, false at stages 0, 1 and 2 (resolved when unset or \"auto\")",
       .stages = {1, 2, 3},
       .doc = "Overlap gradient reduction with the backward pass. The documentation says the default is false, but the "
              "code turns it on for stage 3. ZeRO-1 ignored it from 0.4.4 until 0.13.0; several ZeRO-1/2 releases had "
              "races on this path (fixed in 0.14.3, 0.18.5, 0.19.0, 0.19.3).",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.contiguous_gradients",
       .types = kBool,
       .defaultValue = "true",
       .defaultChanges = {{"", "false"}, {"0.4.3", "true"}},
       .stages = {1, 2, 3},
       .doc = "Copy gradients into a contiguous buffer as they are produced, avoiding fragmentation. With ZeRO-1/2 it "
              "is forced on while the optimizer is offloaded, and MoE requires it.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.reduce_scatter",
       .types = kBool,
       .defaultValue = "true",
       .stages = {1, 2, 3},
       .doc = "Average gradients with reduce or reduce-scatter instead of all-reduce.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.reduce_bucket_size",
       .types = kInt,
       .defaultValue = "500000000",
       .autoFill = AutoFill::HfAndAccelerate,
       .stages = {1, 2, 3},
       .doc = "Elements reduced per bucket. Larger buckets need more memory but fewer collectives. "
              "HF Trainer and Accelerate fill \"auto\" with hidden_size squared.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.use_multi_rank_bucket_allreduce",
       .types = kBool,
       .defaultValue = "true",
       .since = "0.12.4",
       .stages = {1, 2},
       .doc = "Merge the reduce buckets of all ranks into one all-reduce instead of one reduce per rank, which helps "
              "small models on many GPUs.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.allgather_partitions",
       .types = kBool,
       .defaultValue = "true",
       .stages = {1, 2},
       .doc = "Gather updated parameters with all-gather (true) or a series of broadcasts (false) after each step.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.allgather_bucket_size",
       .types = kInt,
       .defaultValue = "500000000",
       .stages = {1, 2},
       .doc = "Elements all-gathered per bucket; bounds the memory used by the all-gather.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.load_from_fp32_weights",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Initialise fp32 master weights from the fp32 copies in the checkpoint (no precision loss) rather than "
              "from the 16-bit model weights.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.elastic_checkpoint",
       .types = kBool,
       .defaultValue = "false",
       .deprecatedBy = "checkpoint.load_universal",
       .deprecatedSince = "0.19.3",
       .doc = "Load a checkpoint saved with a different GPU count. With stage 3 and true, DeepSpeed warns (since "
              "0.19.3) that it is deprecated and points to Universal Checkpointing.",
       .docsUrl = kZeroUrl,
       .deprecatedStages = {3}},
  };
  return keys;
}

// offload and sub-groups
std::span<const KeyInfo> offloadAndSubGroupsKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization.offload_param",
       .types = kObj | kNull,
       .defaultValue = "null",
       .since = "0.3.15",
       .stages = {3},
       .doc = "Offload parameters to CPU or NVMe. Used only by stage 3; with stage 1 or 2 it appears to be silently ignored "
              "(read from the engine code, not run).",
       .docsUrl = kParamOffloadUrl},
      {.path = "zero_optimization.offload_optimizer",
       .types = kObj | kNull,
       .defaultValue = "null",
       .since = "0.3.15",
       .stages = {1, 2, 3},
       .doc = "Offload optimizer state (and the optimizer step) to CPU, or the state to NVMe. CPU works with stages "
              "1, 2 and 3; NVMe only with stage 3.",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.zenflow",
       .types = kObj | kNull,
       .defaultValue = "null",
       .since = "0.17.5",
       .stages = {1, 2},
       .doc = "ZenFlow: update the most important gradient columns on the GPU every step and apply the rest later on "
              "the CPU, overlapping offloaded optimizer work with training.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.sub_group_size",
       .types = kInt,
       .defaultValue = "1000000000",
       .stages = {3},
       .doc = "Parameters are processed by the optimizer in groups of this many elements; with NVMe offload it sets "
              "how much state moves between NVMe and CPU at a time. Lower it on optimizer-step OOM.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.cpu_offload",
       .types = kBool | kNull,
       .defaultValue = "null",
       .deprecatedBy = "zero_optimization.offload_optimizer",
       .deprecatedSince = "0.3.15",
       .doc = "Deprecated: true is converted to \"offload_optimizer\": {\"device\": \"cpu\"} with a warning. Giving both "
              "keys is an error.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.cpu_offload_param",
       .types = kBool | kNull,
       .defaultValue = "null",
       .deprecatedBy = "zero_optimization.offload_param",
       .deprecatedSince = "0.3.15",
       .doc = "Deprecated: true is converted to \"offload_param\": {\"device\": \"cpu\"} with a warning.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.cpu_offload_use_pin_memory",
       .types = kBool | kNull,
       .defaultValue = "null",
       .deprecatedBy = "zero_optimization.offload_optimizer.pin_memory",
       .deprecatedSince = "0.3.15",
       .doc = "Deprecated and not carried over: DeepSpeed only warns. Set pin_memory inside offload_optimizer or "
              "offload_param instead.",
       .docsUrl = kZeroUrl},
  };
  return keys;
}

// stage 3 parameter handling
std::span<const KeyInfo> stage3ParameterHandlingKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization.stage3_prefetch_bucket_size",
       .types = kInt,
       .defaultValue = "50000000",
       .autoFill = AutoFill::HfAndAccelerate,
       .aliases = {"prefetch_bucket_size"},
       .stages = {3},
       .doc = "Parameter elements fetched ahead of use. The documentation says 5e8, the code default is 5e7. "
              "HF fills \"auto\" with 0.9 * hidden_size squared (Trainer only at stage 3).",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.stage3_param_persistence_threshold",
       .types = kInt,
       .defaultValue = "100000",
       .autoFill = AutoFill::HfAndAccelerate,
       .aliases = {"param_persistence_threshold"},
       .stages = {3},
       .doc = "Parameters smaller than this many elements stay unpartitioned. Lower values save memory but add many "
              "small collectives. HF fills \"auto\" with 10 * hidden_size.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.stage3_model_persistence_threshold",
       .types = kInt,
       .defaultValue = "9223372036854775807",
       .defaultNote = "sys.maxsize: no limit",
       .aliases = {"model_persistence_threshold"},
       .stages = {3},
       .doc = "Upper bound on the total elements kept unpartitioned because of stage3_param_persistence_threshold.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.stage3_max_live_parameters",
       .types = kInt,
       .defaultValue = "1000000000",
       .aliases = {"max_live_parameters"},
       .stages = {3},
       .doc = "Most parameter elements kept gathered on a GPU before release. Smaller saves memory, costs communication.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.stage3_max_reuse_distance",
       .types = kInt,
       .defaultValue = "1000000000",
       .aliases = {"max_reuse_distance"},
       .stages = {3},
       .doc = "A gathered parameter is kept if it will be used again within this many parameter elements.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.stage3_gather_16bit_weights_on_model_save",
       .types = kBool,
       .defaultValue = "false",
       .autoFill = AutoFill::Accelerate,
       .since = "0.6.0",
       .aliases = {"gather_16bit_weights_on_model_save"},
       .stages = {3},
       .doc = "Gather the partitioned 16-bit weights when saving with save_16bit_model(). When false nothing is "
              "written there and HF Trainer saves a full ZeRO checkpoint instead (recover with zero_to_fp32.py).",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.stage3_gather_fp16_weights_on_model_save",
       .types = kBool,
       .defaultValue = "false",
       .deprecatedBy = "zero_optimization.stage3_gather_16bit_weights_on_model_save",
       .deprecatedSince = "0.6.0",
       .stages = {3},
       .doc = "Deprecated name of stage3_gather_16bit_weights_on_model_save; the value is copied over with a warning.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.stage3_module_granularity_threshold",
       .types = kInt,
       .defaultValue = "0",
       .since = "0.16.0",
       .aliases = {"module_granularity_threshold"},
       .stages = {3},
       .doc = "Modules whose parameter count per descendant is below this are fetched as one unit, cutting hook and "
              "all-gather overhead for fine-grained layers. 0 disables it.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.stage3_use_all_reduce_for_fetch_params",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.14.3",
       .aliases = {"use_all_reduce_for_fetch_params"},
       .stages = {3},
       .doc = "Fetch module parameters with all-reduce instead of all-gather, saving host-side concatenation work.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.stage3_allgather_sequential",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.18.5",
       .aliases = {"allgather_sequential"},
       .stages = {3},
       .doc = "All-gather parameters one by one instead of through flattened buckets: fewer copies and lower peak memory.",
       .docsUrl = kZeroUrl},
  };
  return keys;
}

// stage 1 and 2 details, hpZ
std::span<const KeyInfo> stage1And2DetailsHpzKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization.ignore_unused_parameters",
       .types = kBool,
       .defaultValue = "true",
       .stages = {2},
       .doc = "When false, parameters that receive no gradient stop training with an error; true ignores them. "
              "Only stage 2 reads it.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.legacy_stage1",
       .types = kBool,
       .defaultValue = "false",
       .stages = {1},
       .doc = "The old ZeRO stage 1 implementation. It was removed in 0.5.9: true now raises an exception.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.round_robin_gradients",
       .types = kBool,
       .defaultValue = "false",
       .stages = {1, 2},
       .doc = "With CPU offload, split gradient copies to CPU among ranks in fine-grained round-robin order; helps with "
              "many accumulation steps or many GPUs.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.zero_hpz_partition_size",
       .types = kInt,
       .defaultValue = "1",
       .since = "0.10.0",
       .stages = {3},
       .doc = "ZeRO++ hierarchical partitioning (hpZ): ranks in the secondary parameter group, ideally the GPUs per "
              "node. 1 turns it off. Releases before 0.10.0 reject the key.",
       .docsUrl = kZeroUrl},
  };
  return keys;
}

// ZeRO++ quantization and MiCS
std::span<const KeyInfo> zeroQuantizationAndMicsKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization.zero_quantized_weights",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.10.0",
       .stages = {3},
       .doc = "ZeRO++ qwZ: quantize weights for the all-gather.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.zero_quantized_nontrainable_weights",
       .types = kBool,
       .defaultValue = "false",
       .stages = {3},
       .doc = "Store frozen (non-trainable) weights quantized, not only communicate them quantized; useful for LoRA.",
       .docsUrl = kZeroUrl,
       .versionNote = "added after the other ZeRO++ keys; the release was not verified"},
      {.path = "zero_optimization.zero_quantized_gradients",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.10.0",
       .stages = {3},
       .doc = "ZeRO++ qgZ: quantize gradients for the reduce (all-to-all based).",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.zeropp_loco_param",
       .types = kObj | kNull,
       .defaultValue = "null",
       .since = "0.16.2",
       .stages = {3},
       .doc = "LoCo-ZeRO++ error feedback for quantized gradients (err_beta, reset_T). Removed on DeepSpeed master "
              "after 0.19.5, where the key is rejected.",
       .docsUrl = kZeroUrl,
       .removedAfter = "0.19.5"},
      {.path = "zero_optimization.mics_shard_size",
       .types = kInt,
       .defaultValue = "-1",
       .stages = {3},
       .doc = "MiCS: shard ZeRO-3 state within groups of this many GPUs; -1 disables. Removed on DeepSpeed master "
              "after 0.19.5, where the key is rejected.",
       .docsUrl = kZeroUrl,
       .removedAfter = "0.19.5",
       .versionNote = "the release that added MiCS was not verified"},
      {.path = "zero_optimization.mics_hierarchical_params_gather",
       .types = kBool,
       .defaultValue = "false",
       .stages = {3},
       .doc = "MiCS: gather parameters hierarchically (intra-node first). Removed on DeepSpeed master after 0.19.5.",
       .docsUrl = kZeroUrl,
       .removedAfter = "0.19.5",
       .versionNote = "the release that added MiCS was not verified"},
  };
  return keys;
}

// memory, checkpoint loading and module hooks
std::span<const KeyInfo> memoryCheckpointLoadingAndModuleHooksKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization.memory_efficient_linear",
       .types = kBool,
       .defaultValue = "true",
       .stages = {3},
       .doc = "Use DeepSpeed's memory-efficient linear layer implementation under stage 3.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.pipeline_loading_checkpoint",
       .types = kBool,
       .defaultValue = "false",
       .stages = {3},
       .doc = "Force loading checkpoints in pipeline mode (stage 3 only).",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.override_module_apply",
       .types = kBool,
       .defaultValue = "true",
       .stages = {3},
       .doc = "Patch nn.Module.apply so it gathers partitioned parameters first (stage 3).",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.log_trace_cache_warnings",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.16.4",
       .stages = {3},
       .doc = "Log warnings from the stage 3 parameter trace cache, such as \"Invalidate trace cache\" events.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.enable_sanity_checks",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Run extra internal consistency checks; for debugging.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.save_muon_momentum_buffer_in_memory",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.18.9",
       .stages = {3},
       .doc = "With the Muon optimizer and NVMe offload, keep the momentum buffer in GPU/CPU memory instead of swapping it.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.leaf_module",
       .types = kObj,
       .since = "0.18.0",
       .stages = {3},
       .doc = "Modules that ZeRO-3 treats as leaves: their parameters are fetched together and no hooks are installed "
              "inside them (typical for MoE blocks).",
       .docsUrl = kZeroUrl},
      // Documented in config-json.md after 0.19.5 only; not in the 0.19.6-dev code the reference read.
      {.path = "zero_optimization.compute_grad_norm",
       .types = kBool,
       .defaultValue = "true",
       .since = "0.19.6",
       .stages = {1, 2},
       .doc = "Compute and keep the global gradient norm in ZeRO-1/2 steps. Set false only with a GPU optimizer, no "
              "gradient clipping, no ZenFlow, and no caller of get_global_grad_norm().",
       .docsUrl = kZeroUrl,
       .versionNote = "documented on DeepSpeed master after 0.19.5; 0.19.6 is the earliest release that can have it"},
      {.path = "zero_optimization.parameter_alignment",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.19.6",
       .stages = {1, 2},
       .doc = "Pad ZeRO-1/2 flat buffers so each parameter starts 16-byte aligned (needed by some grouped GEMMs); "
              "costs memory and changes the checkpoint layout.",
       .docsUrl = kZeroUrl,
       .versionNote = "documented on DeepSpeed master after 0.19.5; 0.19.6 is the earliest release that can have it"},
  };
  return keys;
}

// offload_param
std::span<const KeyInfo> offloadParamKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization.offload_param.device",
       .types = kStr,
       .allowed = {"\"none\"", "\"cpu\"", "\"nvme\""},
       .defaultValue = "\"none\"",
       .autoFill = AutoFill::Accelerate,
       .doc = "Where to offload parameters. The documentation says the default is cpu; the code default is none "
              "(no offload).",
       .docsUrl = kParamOffloadUrl},
      {.path = "zero_optimization.offload_param.nvme_path",
       .types = kStr | kNull,
       .defaultValue = "null",
       .autoFill = AutoFill::Accelerate,
       .doc = "Directory on the NVMe device used when device is nvme.",
       .docsUrl = kParamOffloadUrl},
      {.path = "zero_optimization.offload_param.pin_memory",
       .types = kBool,
       .defaultValue = "true",
       .defaultChanges = {{"", "false"}, {"0.19.5", "true"}},
       .doc = "Offload into page-locked host memory for faster transfers. Pinned memory counts against ulimit -l and "
              "cannot be swapped; the default became true in 0.19.5.",
       .docsUrl = kParamOffloadUrl},
      {.path = "zero_optimization.offload_param.buffer_count",
       .types = kInt,
       .defaultValue = "5",
       .doc = "Buffers in the pool used for parameter offload to NVMe.",
       .docsUrl = kParamOffloadUrl},
      {.path = "zero_optimization.offload_param.buffer_size",
       .types = kInt,
       .defaultValue = "100000000",
       .doc = "Size in elements of each buffer used for parameter offload to NVMe.",
       .docsUrl = kParamOffloadUrl},
      {.path = "zero_optimization.offload_param.max_in_cpu",
       .types = kInt,
       .defaultValue = "1000000000",
       .doc = "Parameter elements kept in CPU memory when offloading to NVMe.",
       .docsUrl = kParamOffloadUrl},
  };
  return keys;
}

// offload_optimizer
std::span<const KeyInfo> offloadOptimizerKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization.offload_optimizer.device",
       .types = kStr,
       .allowed = {"\"none\"", "\"cpu\"", "\"nvme\""},
       .defaultValue = "\"none\"",
       .autoFill = AutoFill::Accelerate,
       .doc = "Where to keep optimizer state; the optimizer step runs on the CPU either way. The documentation says "
              "the default is cpu; the code default is none.",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.offload_optimizer.nvme_path",
       .types = kStr | kNull,
       .defaultValue = "null",
       .autoFill = AutoFill::Accelerate,
       .doc = "Directory on the NVMe device used when device is nvme.",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.offload_optimizer.pin_memory",
       .types = kBool,
       .defaultValue = "true",
       .defaultChanges = {{"", "false"}, {"0.19.5", "true"}},
       .doc = "Offload into page-locked host memory; needed for full-speed asynchronous gradient copies. Pinned memory "
              "counts against ulimit -l; the default became true in 0.19.5.",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.offload_optimizer.buffer_count",
       .types = kInt,
       .defaultValue = "4",
       .doc = "Buffers for optimizer-state offload to NVMe; at least the number of states per parameter (4 for Adam).",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.offload_optimizer.pipeline_read",
       .types = kBool,
       .defaultValue = "false",
       .doc = "With NVMe offload, read the next tile while the current one is processed.",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.offload_optimizer.pipeline_write",
       .types = kBool,
       .defaultValue = "false",
       .doc = "With NVMe offload, write the previous tile while the current one is processed.",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.offload_optimizer.fast_init",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Faster optimizer initialisation when offloading to NVMe.",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.offload_optimizer.ratio",
       .types = kNum,
       .defaultValue = "1.0",
       .since = "0.12.3",
       .stages = {3},
       .doc = "Fraction of optimizer updates run on the CPU. Values below 1.0 need stage 3: other stages assert "
              "\"Partial offloading only supported for ZeRO Stage 3\".",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.offload_optimizer.super_offload",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.18.0",
       .stages = {3},
       .doc = "SuperOffload: CPU offload tuned for superchips (Grace Hopper class). Stage 3 only.",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.offload_optimizer.cpuadam_cores_perc",
       .types = kNum,
       .defaultValue = "0.8",
       .since = "0.18.0",
       .stages = {3},
       .doc = "Share of CPU cores given to CPU Adam under super_offload.",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.offload_optimizer.convert_grad_on_cpu",
       .types = kBool,
       .defaultValue = "true",
       .stages = {3},
       .doc = "Convert gradients to the optimizer precision on the CPU (true) or on the GPU (false).",
       .docsUrl = kOptOffloadUrl,
       .versionNote = "seen alongside super_offload; the release that added it was not verified"},
  };
  return keys;
}

// zenflow
std::span<const KeyInfo> zenflowKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization.zenflow.topk_ratio",
       .types = kNum,
       .defaultValue = "0.1",
       .doc = "Fraction of gradient columns treated as important and updated on the GPU every step."},
      {.path = "zero_optimization.zenflow.select_strategy",
       .types = kStr,
       .allowed = {"\"auto\"", "\"step\"", "\"epoch\""},
       .defaultValue = "\"auto\"",
       .autoFill = AutoFill::DeepSpeedNative,
       .doc = "How the important columns are re-selected: by step, by epoch, or automatically."},
      {.path = "zero_optimization.zenflow.select_interval",
       .types = kInt | kStr,
       .defaultValue = "\"auto\"",
       .autoFill = AutoFill::DeepSpeedNative,
       .doc = "Steps or epochs between re-selections, or \"auto\" (the only string accepted)."},
      {.path = "zero_optimization.zenflow.update_interval",
       .types = kInt | kStr,
       .defaultValue = "\"auto\"",
       .autoFill = AutoFill::DeepSpeedNative,
       .doc = "Steps between applying the accumulated less important gradients, or \"auto\" (the only string accepted)."},
      {.path = "zero_optimization.zenflow.overlap_step",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Overlap the CPU optimizer step with the next forward and backward."},
      {.path = "zero_optimization.zenflow.offload",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Keep the selective optimizer states on the CPU to save GPU memory."},
      {.path = "zero_optimization.zenflow.auto_ratio",
       .types = kNum,
       .defaultValue = "0.99",
       .doc = "Threshold the \"auto\" strategy uses to choose update_interval."},
      {.path = "zero_optimization.zenflow.full_warm_up_rounds",
       .types = kInt,
       .defaultValue = "0",
       .doc = "Initial rounds in which all gradients are applied fully, before selection starts."},
      {.path = "zero_optimization.zenflow.pt_reserved_cores_perc",
       .types = kNum,
       .defaultValue = "0.5",
       .doc = "Share of CPU cores left to PyTorch threads; the rest run ZenFlow's optimizer workers. Must be written "
              "as a float."},
  };
  return keys;
}

// leaf_module
std::span<const KeyInfo> leafModuleKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization.leaf_module.classes",
       .types = kArr | kStr,
       .defaultNote = "newer releases list the Mixtral, Qwen2-MoE and Qwen3-MoE sparse MoE blocks; the first release had none",
       .doc = "Fully qualified class names treated as ZeRO-3 leaf modules. A single string is accepted as a one-item list."},
      {.path = "zero_optimization.leaf_module.names",
       .types = kArr | kStr,
       .defaultValue = "[]",
       .doc = "Module names (as in named_modules()) treated as ZeRO-3 leaf modules."},
      {.path = "zero_optimization.leaf_module.name_suffixes",
       .types = kArr | kStr,
       .defaultValue = "[]",
       .doc = "Name suffixes; modules whose names end with one of them are treated as leaf modules.",
       .versionNote = "added after leaf_module itself; the release was not verified"},
  };
  return keys;
}

// zeropp_loco_param (a free-form dict in DeepSpeed)
std::span<const KeyInfo> zeroppLocoParamKeys() {
  static const KeyInfo keys[] = {
      {.path = "zero_optimization.zeropp_loco_param.err_beta",
       .types = kNum,
       .defaultValue = "0.8",
       .doc = "Moving-average coefficient of the quantization error feedback."},
      {.path = "zero_optimization.zeropp_loco_param.reset_T",
       .types = kInt,
       .defaultValue = "1024",
       .doc = "Steps after which the error-feedback buffer is cleared."},
  };
  return keys;
}

}  // namespace

Group zero() {
  static const SectionInfo sections[] = {
      {.path = "zero_optimization",
       .strict = true,
       .strictSince = "0.7.0",
       .doc = "ZeRO settings. Since 0.7.0 unknown keys are a ValidationError (\"extra fields not permitted\" before "
              "0.15.0, \"Extra inputs are not permitted\" after); keys set to \"auto\" are dropped and take their default.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.offload_param",
       .strict = true,
       .strictSince = "0.7.0",
       .doc = "Parameter offload settings (stage 3).",
       .docsUrl = kParamOffloadUrl},
      {.path = "zero_optimization.offload_optimizer",
       .strict = true,
       .strictSince = "0.7.0",
       .doc = "Optimizer offload settings.",
       .docsUrl = kOptOffloadUrl},
      {.path = "zero_optimization.zenflow",
       .strict = true,
       .doc = "ZenFlow settings.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.leaf_module",
       .strict = true,
       .doc = "ZeRO-3 leaf module selection.",
       .docsUrl = kZeroUrl},
      {.path = "zero_optimization.zeropp_loco_param",
       .strict = false,
       .openKeys = true,
       .doc = "LoCo-ZeRO++ parameters, passed through as a dictionary.",
       .docsUrl = kZeroUrl},
  };
  return {{stageBucketsAndCommunicationKeys(), offloadAndSubGroupsKeys(), stage3ParameterHandlingKeys(),
           stage1And2DetailsHpzKeys(), zeroQuantizationAndMicsKeys(), memoryCheckpointLoadingAndModuleHooksKeys(),
           offloadParamKeys(), offloadOptimizerKeys(), zenflowKeys(), leafModuleKeys(), zeroppLocoParamKeys()},
          sections};
}

}  // namespace dsls::catalog::tables

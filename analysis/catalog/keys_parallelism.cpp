// Parallelism and compute: pipeline (open dict merged over defaults),
// tensor_parallel (strict), expert_parallel, compile (strict), hybrid_engine
// (strict), activation_checkpointing (lenient). Sources: deepspeed/runtime/
// config.py, tensor_parallel/config.py, compile/config.py,
// activation_checkpointing/config.py; docs config-json.md (AutoTP, AutoEP,
// Hybrid Engine, AutoSP, DeepCompile sections); reference section 8.
// The releases that introduced tensor_parallel, expert_parallel, compile and
// hybrid_engine were not verified; their versionNote says so.
#include "analysis/catalog/catalog_tables.h"

namespace dsls::catalog::tables {

namespace {
constexpr const char* kPipeUrl = "https://www.deepspeed.ai/tutorials/pipeline/";
constexpr const char* kTpUrl = "https://www.deepspeed.ai/docs/config-json/#tensor-parallel-autotp";
constexpr const char* kEpUrl = "https://www.deepspeed.ai/docs/config-json/#expert-parallel-autoep";
constexpr const char* kCompileUrl = "https://www.deepspeed.ai/docs/config-json/#autosp-options";
constexpr const char* kHybridUrl = "https://www.deepspeed.ai/docs/config-json/#hybrid-engine";
constexpr const char* kActUrl = "https://www.deepspeed.ai/docs/config-json/#activation-checkpointing";

// pipeline
std::span<const KeyInfo> pipelineKeys() {
  static const KeyInfo keys[] = {
      {.path = "pipeline",
       .types = kObj,
       .doc = "Pipeline-engine settings, merged over DeepSpeed's defaults; any key is passed through. The pipeline "
              "engine rejects ZeRO stages 2 and 3 and turns overlap_comm off.",
       .docsUrl = kPipeUrl},
      {.path = "pipeline.stages",
       .types = kInt | kStr,
       .defaultValue = "\"auto\"",
       .autoFill = AutoFill::DeepSpeedNative,
       .doc = "Number of pipeline stages; \"auto\" is a real DeepSpeed value here."},
      {.path = "pipeline.partition",
       .types = kStr,
       .defaultValue = "\"best\"",
       .doc = "How layers are split across stages."},
      {.path = "pipeline.seed_layers", .types = kBool, .defaultValue = "false", .doc = "Seed each layer's initialisation separately."},
      {.path = "pipeline.activation_checkpoint_interval",
       .types = kInt,
       .defaultValue = "0",
       .doc = "Checkpoint activations every N layers; 0 disables."},
      {.path = "pipeline.pipe_partitioned",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Partition activations sent between stages across tensor-parallel ranks."},
      {.path = "pipeline.grad_partitioned",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Partition gradients sent between stages across tensor-parallel ranks."},
  };
  return keys;
}

// tensor_parallel (AutoTP training)
std::span<const KeyInfo> tensorParallelKeys() {
  static const KeyInfo keys[] = {
      {.path = "tensor_parallel",
       .types = kObj,
       .doc = "AutoTP tensor parallelism for training, combinable with ZeRO 0-3. Models with a Hugging Face tp_plan "
              "need only autotp_size.",
       .docsUrl = kTpUrl,
       .versionNote = "the release that added training AutoTP config was not verified"},
      {.path = "tensor_parallel.autotp_size",
       .types = kInt,
       .defaultValue = "0",
       .doc = "Tensor-parallel degree; 0 disables AutoTP."},
      {.path = "tensor_parallel.tp_overlap_comm",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Overlap tensor-parallel all-reduce with computation (training only)."},
      {.path = "tensor_parallel.preset_model",
       .types = kStr | kNull,
       .allowed = {"\"llama\"", "\"bloom\"", "\"chatglm\"", "\"mixtral\"", "\"deepseek_v2\"", "\"qwen2\"", "\"phi3\""},
       .defaultValue = "null",
       .doc = "Built-in partitioning preset for a model family.",
       .openEnum = true},
      {.path = "tensor_parallel.partition_config",
       .types = kObj | kNull,
       .defaultValue = "null",
       .doc = "Custom partitioning rules; they take precedence over the model's own tp_plan."},
      {.path = "tensor_parallel.vocab_parallel_lm_head",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Keep an untied lm_head sharded over the vocabulary and use a vocab-parallel loss instead of gathering "
              "logits.",
       .versionNote = "documented on recent master; the release was not verified"},
      {.path = "tensor_parallel.keep_module_on_host",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Keep loaded checkpoint tensors on the host instead of moving them to the device right away."},
      {.path = "tensor_parallel.replace_with_kernel_inject",
       .types = kBool,
       .defaultValue = "false",
       .aliases = {"kernel_inject"},
       .doc = "Inject DeepSpeed inference kernels for supported models."},
      {.path = "tensor_parallel.dtype",
       .types = kStr,
       .doc = "Model data type the AutoTP path converts to. The field is a torch.dtype, so a JSON string may not "
              "validate (not verified)."},
      {.path = "tensor_parallel.tensor_parallel",
       .types = kObj,
       .aliases = {"tp"},
       .doc = "Inner tensor-parallel settings (tp_size, tp_grain_size)."},
      {.path = "tensor_parallel.tensor_parallel.tp_size", .types = kInt, .defaultValue = "1", .doc = "Tensor-parallel group size."},
      {.path = "tensor_parallel.tensor_parallel.tp_grain_size",
       .types = kInt,
       .defaultValue = "1",
       .doc = "Granularity of MLP/lm_head splits for the AutoTP parser."},
      {.path = "tensor_parallel.partition_config.use_default_specs",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Merge layer_specs with the preset's rules when preset_model is set; otherwise only layer_specs apply."},
      {.path = "tensor_parallel.partition_config.layer_specs",
       .types = kArr,
       .defaultValue = "[]",
       .doc = "Ordered rules {patterns, partition_type row|column|skip, shape, partition_dim, model_types} matched "
              "against parameter names."},
  };
  return keys;
}

// expert_parallel (AutoEP)
std::span<const KeyInfo> expertParallelKeys() {
  static const KeyInfo keys[] = {
      {.path = "expert_parallel",
       .types = kObj,
       .doc = "AutoEP: detect MoE layers of Hugging Face models and replace them with expert-parallel versions. Not "
              "combinable with AutoTP (autotp_size > 1).",
       .docsUrl = kEpUrl,
       .versionNote = "present by 0.19.6-dev; the release that added it was not verified"},
      {.path = "expert_parallel.enabled", .types = kBool, .defaultValue = "false", .doc = "Enable AutoEP; when false the other keys are ignored."},
      {.path = "expert_parallel.autoep_size",
       .types = kInt,
       .defaultValue = "1",
       .doc = "Expert-parallel degree; must divide world_size / pipeline size and the expert count. 1 keeps all experts local."},
      {.path = "expert_parallel.expert_tensor_parallel_size",
       .types = kInt,
       .allowed = {"1"},
       .defaultValue = "1",
       .doc = "Reserved for expert tensor parallelism; only 1 is accepted."},
      {.path = "expert_parallel.async_split_plan",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Overlap the device-to-host copy of split metadata with token sorting. Needs CUDA and autotp_size 1.",
       .versionNote = "documented on recent master; the release was not verified"},
      {.path = "expert_parallel.preset_model",
       .types = kStr | kNull,
       .allowed = {"\"mixtral\"", "\"qwen3_moe\"", "\"qwen3_5_moe\"", "\"deepseek_v2\"", "\"deepseek_v3\""},
       .defaultValue = "null",
       .doc = "Built-in MoE naming preset; null detects from model_type.",
       .openEnum = true},
      {.path = "expert_parallel.use_grouped_mm",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Use fused grouped GEMM for experts (torch._grouped_mm on compute capability 9.0+, Triton below); false "
              "loops over experts."},
      {.path = "expert_parallel.disable_triton_grouped_mm",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Force torch._grouped_mm even where the Triton kernel would be chosen."},
      {.path = "expert_parallel.moe_layer_pattern",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Regex for MoE module names; when set, the custom path is used instead of detecting from model_type."},
      {.path = "expert_parallel.router_pattern",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Attribute name of the router module (not a regex)."},
      {.path = "expert_parallel.expert_pattern",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Attribute name of the experts module (not a regex)."},
      {.path = "expert_parallel.score_func",
       .types = kStr,
       .allowed = {"\"softmax\"", "\"sigmoid\"", "\"auto\""},
       .defaultValue = "\"auto\"",
       .autoFill = AutoFill::DeepSpeedNative,
       .doc = "Router scoring function; \"auto\" reads it from the model config or preset."},
      {.path = "expert_parallel.score_apply",
       .types = kStr,
       .allowed = {"\"pre\"", "\"post\"", "\"auto\""},
       .defaultValue = "\"auto\"",
       .autoFill = AutoFill::DeepSpeedNative,
       .doc = "Apply router scores before the experts or when combining their outputs; \"auto\" follows the preset."},
      {.path = "expert_parallel.combine_impl",
       .types = kStr,
       .allowed = {"\"auto\"", "\"weighted_sum\"", "\"fused_weighted_sum\"", "\"legacy_bmm\""},
       .defaultValue = "\"auto\"",
       .autoFill = AutoFill::DeepSpeedNative,
       .doc = "How expert outputs are weighted and summed; \"auto\" means weighted_sum.",
       .versionNote = "documented on recent master; the release was not verified"},
      {.path = "expert_parallel.route_norm",
       .types = kBool | kNull,
       .defaultValue = "null",
       .doc = "Renormalise the top-k router scores; null reads norm_topk_prob from the model config or preset."},
  };
  return keys;
}

// expert_parallel: routing and load balance
std::span<const KeyInfo> expertParallelRoutingKeys() {
  static const KeyInfo keys[] = {
      {.path = "expert_parallel.route_scale", .types = kNum, .defaultValue = "1.0", .doc = "Factor applied to router scores."},
      {.path = "expert_parallel.top_k",
       .types = kInt | kStr,
       .defaultValue = "\"auto\"",
       .autoFill = AutoFill::DeepSpeedNative,
       .doc = "Experts per token; \"auto\" reads the model config attribute named by top_k_attr."},
      {.path = "expert_parallel.routed_scaling_factor",
       .types = kNum | kStr,
       .defaultValue = "\"auto\"",
       .autoFill = AutoFill::DeepSpeedNative,
       .doc = "Scale of routed expert outputs; \"auto\" reads it from the model config when present."},
      {.path = "expert_parallel.num_expert_groups",
       .types = kInt | kNull,
       .defaultValue = "null",
       .doc = "Expert groups for group-limited routing (DeepSeek-V3 style)."},
      {.path = "expert_parallel.num_limited_groups",
       .types = kInt | kNull,
       .defaultValue = "null",
       .doc = "Groups selected per token in group-limited routing; at most num_expert_groups."},
      {.path = "expert_parallel.load_balance_coeff",
       .types = kNull,
       .defaultValue = "null",
       .doc = "Reserved for auxiliary-loss-free load balancing; any non-null value is rejected."},
      {.path = "expert_parallel.expert_w1",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Weight name of the gate (or fused gate+up) projection; null uses the preset."},
      {.path = "expert_parallel.expert_w2",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Weight name of the down projection; null uses the preset."},
      {.path = "expert_parallel.expert_w3",
       .types = kStr | kNull,
       .defaultNote = "absent: preset default; null: gate and up are fused",
       .doc = "Weight name of a separate up projection. Absent uses the preset, null means there is none."},
      {.path = "expert_parallel.num_experts_attr",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Model config attribute holding the expert count."},
      {.path = "expert_parallel.top_k_attr",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Model config attribute holding top-k; ignored when top_k is an integer."},
      {.path = "expert_parallel.has_shared_experts",
       .types = kBool | kNull,
       .defaultValue = "null",
       .doc = "Whether the MoE layer has shared experts; must be paired with shared_experts_pattern."},
      {.path = "expert_parallel.shared_experts_pattern",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Attribute name of the shared-experts module."},
  };
  return keys;
}

// compile (DeepCompile)
std::span<const KeyInfo> compileKeys() {
  static const KeyInfo keys[] = {
      {.path = "compile",
       .types = kObj,
       .doc = "DeepCompile: compiler passes for ZeRO and sequence parallelism applied through torch.compile.",
       .docsUrl = kCompileUrl,
       .versionNote = "read by 0.13.2-0.14.3 (torch.compile settings) and again from 0.16.6 (DeepCompile); the "
                      "releases between do not read it"},
      {.path = "compile.enabled",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.13.2",
       .until = "0.14.4",
       .doc = "Wrap the model in torch.compile (read by 0.13.2 to 0.14.3 only)."},
      {.path = "compile.backend",
       .types = kStr,
       .defaultValue = "\"inductor\"",
       .since = "0.13.2",
       .until = "0.14.4",
       .doc = "The torch.compile backend."},
      {.path = "compile.kwargs",
       .types = kObj,
       .defaultValue = "{}",
       .since = "0.13.2",
       .until = "0.14.4",
       .doc = "Keyword arguments passed to torch.compile."},
      {.path = "compile.deepcompile", .types = kBool, .defaultValue = "false", .doc = "Turn DeepCompile on."},
      {.path = "compile.free_activation", .types = kBool, .defaultValue = "false", .doc = "Free large activations eagerly."},
      {.path = "compile.free_activation_threshold",
       .types = kInt,
       .defaultValue = "10485760",
       .doc = "Activations of at least this many bytes are freed eagerly in free_activation mode."},
      {.path = "compile.offload_activation",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Activation offload; takes effect only with a custom schedule that includes the offload pass."},
      {.path = "compile.offload_activation_pin_memory",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Pin the host buffers used by activation offload; set false under a tight ulimit -l.",
       .versionNote = "documented on recent master; the release was not verified"},
      {.path = "compile.offload_opt_states", .types = kBool, .defaultValue = "false", .doc = "Offload optimizer states."},
      {.path = "compile.double_buffer", .types = kBool, .defaultValue = "true", .doc = "Use double buffering."},
      {.path = "compile.symmetric_memory", .types = kBool, .defaultValue = "false", .doc = "Use symmetric memory."},
      {.path = "compile.debug_log", .types = kBool, .defaultValue = "false", .doc = "Dump graphs for debugging."},
      {.path = "compile.offload_parameters", .types = kBool, .defaultValue = "false", .doc = "Offload parameters."},
      {.path = "compile.sync_before_reduce", .types = kBool, .defaultValue = "false", .doc = "Synchronise before each reduce."},
      {.path = "compile.sync_after_reduce", .types = kBool, .defaultValue = "false", .doc = "Synchronise after each reduce."},
      {.path = "compile.sync_before_allgather", .types = kBool, .defaultValue = "false", .doc = "Synchronise before each all-gather."},
      {.path = "compile.sync_after_allgather", .types = kBool, .defaultValue = "false", .doc = "Synchronise after each all-gather."},
      {.path = "compile.keep_int_input_tensors",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Keep real values of integer input tensors while profiling instead of dummies."},
      {.path = "compile.keep_all_input_tensors",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Keep real values of all input tensors while profiling instead of dummies."},
      {.path = "compile.passes",
       .types = kArr | kNull,
       .defaultValue = "null",
       .doc = "Extra compiler passes, e.g. [\"autosp\"] for automatic sequence parallelism or [\"autotp\"] for AutoTP "
              "collectives in the graph (needs autotp_size > 1)."},
      {.path = "compile.sp_size", .types = kInt, .defaultValue = "1", .doc = "Sequence-parallel group size for AutoSP."},
      {.path = "compile.dp_size", .types = kInt, .defaultValue = "1", .doc = "Data-parallel group size for AutoSP."},
  };
  return keys;
}

// hybrid_engine
std::span<const KeyInfo> hybridEngineKeys() {
  static const KeyInfo keys[] = {
      {.path = "hybrid_engine",
       .types = kObj,
       .doc = "Switch a model between training and DeepSpeed inference kernels in one loop (RLHF actors, DeepSpeed-Chat).",
       .docsUrl = kHybridUrl,
       .versionNote = "the release that added it was not verified"},
      {.path = "hybrid_engine.enabled", .types = kBool, .defaultValue = "false", .doc = "Use the hybrid engine."},
      {.path = "hybrid_engine.max_out_tokens",
       .types = kInt,
       .defaultValue = "512",
       .doc = "Longest generation the inference workspace is sized for; must be positive."},
      {.path = "hybrid_engine.inference_tp_size",
       .types = kInt,
       .defaultValue = "1",
       .doc = "Tensor-parallel degree used during generation."},
      {.path = "hybrid_engine.release_inference_cache",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Free the inference cache after each generation, saving memory at some speed."},
      {.path = "hybrid_engine.pin_parameters",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Keep gathered parameters pinned between generations."},
      {.path = "hybrid_engine.tp_gather_partition_size",
       .types = kInt,
       .defaultValue = "8",
       .doc = "Layers gathered at a time when switching tensor-parallel layouts."},
      {.path = "hybrid_engine.enable_cuda_graph",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Capture token generation in CUDA graphs. Ignored with ZeRO-3, release_inference_cache, or "
              "inference_tp_size > 1."},
  };
  return keys;
}

// activation_checkpointing
std::span<const KeyInfo> activationCheckpointingKeys() {
  static const KeyInfo keys[] = {
      {.path = "activation_checkpointing",
       .types = kObj,
       .doc = "Settings for deepspeed.checkpointing (activation checkpointing); unknown keys are ignored.",
       .docsUrl = kActUrl},
      {.path = "activation_checkpointing.partition_activations",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Partition checkpointed activations across model-parallel ranks."},
      {.path = "activation_checkpointing.cpu_checkpointing",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Offload checkpointed activations to CPU memory."},
      {.path = "activation_checkpointing.contiguous_memory_optimization",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Copy partitioned activations into one contiguous buffer; needs number_checkpoints."},
      {.path = "activation_checkpointing.number_checkpoints",
       .types = kInt | kNull,
       .defaultValue = "null",
       .doc = "Number of checkpoints, used to size the contiguous buffer."},
      {.path = "activation_checkpointing.synchronize_checkpoint_boundary",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Synchronise the device at each checkpoint boundary."},
      {.path = "activation_checkpointing.profile",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Log forward and backward time of each checkpointed function."},
  };
  return keys;
}

}  // namespace

Group parallelism() {
  static const SectionInfo sections[] = {
      {.path = "pipeline",
       .strict = false,
       .openKeys = true,
       .doc = "Pipeline settings; every key is merged over the defaults and passed on.",
       .docsUrl = kPipeUrl},
      {.path = "tensor_parallel", .strict = true, .doc = "AutoTP training settings.", .docsUrl = kTpUrl},
      {.path = "tensor_parallel.tensor_parallel", .strict = true, .doc = "Inner tensor-parallel settings.", .docsUrl = kTpUrl},
      {.path = "tensor_parallel.partition_config",
       .strict = false,
       .openKeys = true,
       .doc = "Custom AutoTP partitioning, passed through as a dictionary.",
       .docsUrl = kTpUrl},
      // Whether the AutoEP parser rejects unknown keys was not verified; treated as lenient.
      {.path = "expert_parallel", .strict = false, .doc = "AutoEP settings.", .docsUrl = kEpUrl},
      {.path = "compile", .strict = true, .doc = "DeepCompile settings.", .docsUrl = kCompileUrl},
      {.path = "hybrid_engine", .strict = true, .doc = "Hybrid engine settings.", .docsUrl = kHybridUrl},
      {.path = "activation_checkpointing", .strict = false, .doc = "Activation checkpointing settings.", .docsUrl = kActUrl},
  };
  return {{pipelineKeys(), tensorParallelKeys(), expertParallelKeys(), expertParallelRoutingKeys(), compileKeys(),
           hybridEngineKeys(), activationCheckpointingKeys()},
          sections};
}

}  // namespace dsls::catalog::tables

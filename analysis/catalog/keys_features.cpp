// Feature sections: autotuning, elasticity, data_efficiency, legacy
// curriculum_learning, compression_training, quantize_training (MoQ),
// eigenvalue, sparse_attention, progressive_layer_drop, weight_quantization.
// All lenient (get_scalar_param) except weight_quantization. Sources:
// deepspeed/autotuning/constants.py, elasticity/constants.py,
// runtime/data_pipeline/constants.py, runtime/constants.py, runtime/config.py,
// inference/config.py; docs config-json.md (older revisions for the removed
// features). Many of these were removed on DeepSpeed master after 0.19.5
// (issue #8489): the keys are then rejected with DeepSpeedConfigError.
#include "analysis/catalog/catalog_tables.h"

namespace dsls::catalog::tables {

namespace {
constexpr const char* kAutotuneUrl = "https://www.deepspeed.ai/docs/config-json/#autotuning";
constexpr const char* kElasticUrl = "https://www.deepspeed.ai/docs/config-json/#elastic-training-config-v01-and-v02";
constexpr const char* kDataEffUrl = "https://www.deepspeed.ai/docs/config-json/#data-efficiency";
constexpr const char* kCurriculumUrl = "https://www.deepspeed.ai/docs/config-json/#curriculum-learning";
constexpr const char* kCompressionUrl = "https://www.deepspeed.ai/docs/config-json/#compression";
constexpr const char* kSparseUrl = "https://www.deepspeed.ai/docs/config-json/#sparse-attention";
constexpr const char* kPldUrl = "https://www.deepspeed.ai/tutorials/progressive_layer_dropping/";
constexpr const char* kBase = "https://www.deepspeed.ai/docs/config-json/";

#define DSLS_DE "data_efficiency."
#define DSLS_DS DSLS_DE "data_sampling."
#define DSLS_CL DSLS_DS "curriculum_learning."
#define DSLS_CM DSLS_CL "curriculum_metrics.*."
#define DSLS_DR DSLS_DE "data_routing."
#define DSLS_LTD DSLS_DR "random_ltd."

// autotuning
std::span<const KeyInfo> autotuningKeys() {
  static const KeyInfo keys[] = {
      {.path = "autotuning",
       .types = kObj,
       .doc = "Settings for the DeepSpeed autotuner (deepspeed --autotuning), which searches ZeRO stages and micro "
              "batch sizes.",
       .docsUrl = kAutotuneUrl},
      {.path = "autotuning.enabled", .types = kBool, .defaultValue = "false", .doc = "Enable the autotuner."},
      {.path = "autotuning.fast",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Tune only the ZeRO stage and micro batch size."},
      {.path = "autotuning.results_dir",
       .types = kStr,
       .defaultValue = "\"autotuning_results\"",
       .doc = "Directory for experiment results, relative to the launch directory."},
      {.path = "autotuning.exps_dir",
       .types = kStr,
       .defaultValue = "\"autotuning_exps\"",
       .doc = "Directory for experiment descriptions, relative to the launch directory."},
      {.path = "autotuning.overwrite",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Re-run experiments whose results already exist. The documentation says the default is false; the "
              "code default is true."},
      {.path = "autotuning.metric",
       .types = kStr,
       .defaultValue = "\"throughput\"",
       .doc = "Ranking metric: latency, throughput or flops."},
      {.path = "autotuning.metric_path",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "File the metric is written to."},
      {.path = "autotuning.start_profile_step",
       .types = kInt,
       .defaultValue = "3",
       .doc = "Step at which profiling starts; leave warm-up steps before it."},
      {.path = "autotuning.end_profile_step",
       .types = kInt,
       .defaultValue = "5",
       .doc = "Step at which profiling ends; not less than start_profile_step."},
      {.path = "autotuning.tuner_type",
       .types = kStr,
       .allowed = {"\"gridsearch\"", "\"random\"", "\"model_based\""},
       .defaultValue = "\"gridsearch\"",
       .doc = "Search order within a ZeRO stage. The documentation says model_based is the default; the code default "
              "is gridsearch."},
      {.path = "autotuning.tuner_early_stopping",
       .types = kInt,
       .defaultValue = "5",
       .doc = "Stop after this many experiments without improvement."},
      {.path = "autotuning.tuner_num_trials",
       .types = kInt,
       .defaultValue = "50",
       .doc = "Most experiments per ZeRO stage."},
      {.path = "autotuning.arg_mappings",
       .types = kObj | kNull,
       .defaultValue = "null",
       .doc = "Maps DeepSpeed config keys to the training script's command-line arguments."},
      {.path = "autotuning.max_train_batch_size",
       .types = kInt | kNull,
       .defaultValue = "null",
       .doc = "Largest global batch size to try."},
      {.path = "autotuning.min_train_batch_size", .types = kInt, .defaultValue = "1", .doc = "Smallest global batch size to try."},
      {.path = "autotuning.max_train_micro_batch_size_per_gpu",
       .types = kInt,
       .defaultValue = "1024",
       .doc = "Largest micro batch size to try."},
      {.path = "autotuning.min_train_micro_batch_size_per_gpu",
       .types = kInt,
       .defaultValue = "1",
       .doc = "Smallest micro batch size to try."},
      {.path = "autotuning.num_tuning_micro_batch_sizes",
       .types = kInt,
       .defaultValue = "3",
       .doc = "Number of micro batch sizes to explore."},
      {.path = "autotuning.mp_size", .types = kInt, .defaultValue = "1", .doc = "Model-parallel degree of the job."},
      {.path = "autotuning.model_info_path",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "File with model information, instead of profiling the model."},
      {.path = "autotuning.model_info", .types = kObj, .doc = "Model facts that spare the autotuner a profiling run."},
      {.path = "autotuning.model_info.profile", .types = kBool, .defaultValue = "false", .doc = "Profile the model to collect the facts."},
      {.path = "autotuning.model_info.num_params", .types = kInt | kNull, .defaultValue = "null", .doc = "Parameter count."},
      {.path = "autotuning.model_info.hidden_size", .types = kInt | kNull, .defaultValue = "null", .doc = "Hidden size."},
      {.path = "autotuning.model_info.num_layers", .types = kInt | kNull, .defaultValue = "null", .doc = "Layer count."},
  };
  return keys;
}

// elasticity
std::span<const KeyInfo> elasticityKeys() {
  static const KeyInfo keys[] = {
      {.path = "elasticity",
       .types = kObj,
       .doc = "Elastic training: DeepSpeed picks a global batch size valid for a range of GPU counts and overrides the "
              "batch keys. Removed on DeepSpeed master after 0.19.5, where the key is rejected.",
       .docsUrl = kElasticUrl,
       .removedAfter = "0.19.5"},
      {.path = "elasticity.enabled", .types = kBool, .defaultValue = "false", .doc = "Compute the batch size elastically."},
      {.path = "elasticity.max_train_batch_size",
       .types = kInt,
       .defaultValue = "2000",
       .doc = "Largest acceptable global batch size."},
      {.path = "elasticity.micro_batch_sizes",
       .types = kArr,
       .defaultValue = "[2, 4, 6]",
       .doc = "Acceptable micro batch sizes per GPU."},
      {.path = "elasticity.min_gpus", .types = kInt, .defaultValue = "1", .doc = "Fewest GPUs to plan for."},
      {.path = "elasticity.max_gpus", .types = kInt, .defaultValue = "10000", .doc = "Most GPUs to plan for."},
      {.path = "elasticity.min_time",
       .types = kInt,
       .defaultValue = "0",
       .doc = "Minutes to run before the scheduler may rescale; 0 means unknown (version 0.1 only)."},
      {.path = "elasticity.prefer_larger_batch",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Prefer the batch size closest to max_train_batch_size. The documentation spells it prefer_large_batch; "
              "the code reads prefer_larger_batch."},
      {.path = "elasticity.ignore_non_elastic_batch_info",
       .types = kBool,
       .defaultValue = "false",
       .doc = "When false, batch keys outside this section raise ElasticityConfigError; when true they are silently "
              "ignored."},
      {.path = "elasticity.version",
       .types = kNum,
       .defaultValue = "0.2",
       .defaultNote = "LATEST_ELASTICITY_VERSION, 0.2 in every release from 0.8.0",
       .doc = "Elasticity algorithm version; 0.2 adds model-parallel support."},
      {.path = "elasticity.num_gpus_per_node",
       .types = kInt,
       .defaultValue = "1",
       .doc = "GPUs per node (version 0.2)."},
      {.path = "elasticity.model_parallel_size",
       .types = kInt,
       .defaultValue = "1",
       .doc = "Tensor/model-parallel size (version 0.2)."},
  };
  return keys;
}

// data_efficiency
std::span<const KeyInfo> dataEfficiencyKeys() {
  static const KeyInfo keys[] = {
      {.path = "data_efficiency",
       .types = kObj,
       .doc = "Data Efficiency library: curriculum learning by data sampling and random layerwise token dropping.",
       .docsUrl = kDataEffUrl},
      {.path = DSLS_DE "enabled", .types = kBool, .defaultValue = "false", .doc = "Enable the data efficiency library."},
      {.path = DSLS_DE "seed", .types = kInt, .defaultValue = "1234", .doc = "Random seed for data sampling."},
      {.path = DSLS_DE "data_sampling", .types = kObj, .doc = "Data sampling techniques (curriculum learning)."},
      {.path = DSLS_DE "data_routing", .types = kObj, .doc = "Data routing techniques (random-LTD)."},
      {.path = DSLS_DS "enabled", .types = kBool, .defaultValue = "false", .doc = "Enable data sampling."},
      {.path = DSLS_DS "num_epochs", .types = kInt, .defaultValue = "1000", .doc = "Most passes over the dataset."},
      {.path = DSLS_DS "num_workers", .types = kInt, .defaultValue = "0", .doc = "Dataloader worker processes."},
      {.path = DSLS_DS "curriculum_learning", .types = kObj, .doc = "Curriculum learning by difficulty metrics."},
      {.path = DSLS_CL "enabled", .types = kBool, .defaultValue = "false", .doc = "Enable curriculum learning."},
      {.path = DSLS_CL "data_cluster_path",
       .types = kStr,
       .doc = "Directory where sample indexes grouped by difficulty are stored."},
      {.path = DSLS_CL "curriculum_metrics",
       .types = kObj,
       .doc = "One entry per difficulty metric, keyed by the metric name."},
      {.path = DSLS_CM "index_to_sample_path",
       .types = kStr,
       .doc = "index_to_sample file from offline data analysis (the percentile_merged file only with difficulty_type "
              "percentile)."},
      {.path = DSLS_CM "index_to_metric_path", .types = kStr, .doc = "index_to_metric file from offline data analysis."},
      {.path = DSLS_CM "difficulty_type",
       .types = kStr,
       .allowed = {"\"value\"", "\"percentile\""},
       .doc = "Raise the difficulty by absolute metric value or by percentile."},
      {.path = DSLS_CM "clustering_type",
       .types = kStr,
       .allowed = {"\"schedule_based\"", "\"single_cluster\""},
       .doc = "Cluster samples following the schedule, or use one cluster."},
      {.path = DSLS_CM "min_difficulty", .types = kNum, .doc = "Difficulty at the first step."},
      {.path = DSLS_CM "max_difficulty", .types = kNum, .doc = "Final difficulty."},
      {.path = DSLS_CM "schedule_type",
       .types = kStr,
       .allowed = {"\"fixed_linear\"", "\"fixed_root\"", "\"fixed_discrete\"", "\"custom\""},
       .doc = "Pacing function from min_difficulty to max_difficulty; custom needs a callback set in code."},
      {.path = DSLS_CM "schedule_config", .types = kObj, .doc = "Parameters of the pacing function."},
      {.path = DSLS_CM "schedule_config.total_curriculum_step",
       .types = kInt,
       .doc = "Steps from min to max difficulty (fixed_linear, fixed_root)."},
      {.path = DSLS_CM "schedule_config.difficulty_step",
       .types = kInt,
       .doc = "Difficulty is kept a multiple of this (fixed_linear, fixed_root); 8 or 16 suits tensor cores."},
      {.path = DSLS_CM "schedule_config.root_degree", .types = kInt, .doc = "Degree of the root function (fixed_root)."},
      {.path = DSLS_CM "schedule_config.difficulty", .types = kArr, .doc = "Difficulty levels (fixed_discrete)."},
      {.path = DSLS_CM "schedule_config.max_step", .types = kArr, .doc = "Steps at which each level ends (fixed_discrete)."},
      {.path = DSLS_DR "enabled", .types = kBool, .defaultValue = "false", .doc = "Enable data routing."},
      {.path = DSLS_DR "random_ltd", .types = kObj, .doc = "Random layerwise token dropping."},
      {.path = DSLS_LTD "enabled", .types = kBool, .defaultValue = "false", .doc = "Enable random-LTD."},
      {.path = DSLS_LTD "total_layer_num", .types = kInt, .doc = "Number of layers in the model."},
      {.path = DSLS_LTD "random_ltd_layer_num", .types = kInt, .doc = "Number of layers random-LTD applies to."},
      {.path = DSLS_LTD "random_ltd_layer_id",
       .types = kArr,
       .doc = "Layer ids random-LTD applies to; as many as random_ltd_layer_num."},
      {.path = DSLS_LTD "model_mask_name",
       .types = kStr,
       .doc = "Keyword name of the attention mask in the model's forward (attention_mask for Hugging Face models)."},
      {.path = DSLS_LTD "model_type",
       .types = kStr,
       .allowed = {"\"decoder\"", "\"encoder\""},
       .doc = "Whether the model is a decoder or an encoder."},
      {.path = DSLS_LTD "hidden_state_order",
       .types = kStr,
       .allowed = {"\"batch_seq_dim\"", "\"seq_batch_dim\""},
       .doc = "Layout of the hidden-state tensor."},
      {.path = DSLS_LTD "random_ltd_schedule", .types = kObj, .doc = "Schedule of the kept sequence length."},
      {.path = DSLS_LTD "random_ltd_schedule.min_value", .types = kInt, .doc = "Kept sequence length at step 0."},
      {.path = DSLS_LTD "random_ltd_schedule.max_value",
       .types = kInt,
       .doc = "Final kept sequence length, usually the full sequence length."},
      {.path = DSLS_LTD "random_ltd_schedule.schedule_type",
       .types = kStr,
       .allowed = {"\"fixed_linear\""},
       .doc = "Shape of the schedule; only fixed_linear exists."},
      {.path = DSLS_LTD "random_ltd_schedule.schedule_config", .types = kObj, .doc = "Parameters of the schedule."},
      {.path = DSLS_LTD "random_ltd_schedule.schedule_config.require_steps",
       .types = kInt,
       .doc = "Steps to go from min_value to max_value."},
      {.path = DSLS_LTD "random_ltd_schedule.schedule_config.seq_per_step",
       .types = kInt,
       .doc = "Kept length stays a multiple of this; 8 (fp16) or 16 (int8) suits tensor cores."},
      {.path = DSLS_LTD "layer_token_lr_schedule", .types = kObj, .doc = "Learning-rate schedule by consumed layer tokens."},
      {.path = DSLS_LTD "layer_token_lr_schedule.enabled", .types = kBool, .defaultValue = "false", .doc = "Schedule the learning rate by layer tokens."},
      {.path = DSLS_LTD "layer_token_lr_schedule.total_layer_tokens", .types = kInt, .doc = "Layer tokens of the whole run."},
      {.path = DSLS_LTD "layer_token_lr_schedule.warmup_type", .types = kStr, .doc = "Shape of the warm-up."},
      {.path = DSLS_LTD "layer_token_lr_schedule.warmup_layer_tokens", .types = kInt, .doc = "Layer tokens of the warm-up."},
  };
  return keys;
}

// legacy curriculum_learning
std::span<const KeyInfo> legacyCurriculumLearningKeys() {
  static const KeyInfo keys[] = {
      {.path = "curriculum_learning",
       .types = kObj,
       .doc = "Legacy curriculum learning (sequence-length based). Superseded by "
              "data_efficiency.data_sampling.curriculum_learning; removed on DeepSpeed master after 0.19.5, where the "
              "top-level key is rejected.",
       .docsUrl = kCurriculumUrl,
       .removedAfter = "0.19.5"},
      {.path = "curriculum_learning.enabled", .types = kBool, .defaultValue = "false", .doc = "Enable legacy curriculum learning."},
      {.path = "curriculum_learning.curriculum_type",
       .types = kStr,
       .allowed = {"\"seqlen\""},
       .doc = "Difficulty metric; only seqlen is supported."},
      {.path = "curriculum_learning.min_difficulty", .types = kInt, .doc = "Starting difficulty."},
      {.path = "curriculum_learning.max_difficulty", .types = kInt, .doc = "Final difficulty."},
      {.path = "curriculum_learning.schedule_type",
       .types = kStr,
       .allowed = {"\"fixed_linear\"", "\"fixed_root\"", "\"fixed_discrete\""},
       .doc = "Pacing function."},
      {.path = "curriculum_learning.schedule_config", .types = kObj, .doc = "Parameters of the pacing function."},
      {.path = "curriculum_learning.schedule_config.total_curriculum_step",
       .types = kInt,
       .doc = "Steps from min to max difficulty (fixed_linear, fixed_root)."},
      {.path = "curriculum_learning.schedule_config.difficulty_step",
       .types = kInt,
       .doc = "Difficulty stays a multiple of this; 8 (fp16) or 16 (int8) suits tensor cores."},
      {.path = "curriculum_learning.schedule_config.root_degree", .types = kInt, .doc = "Degree of the root function (fixed_root)."},
      {.path = "curriculum_learning.schedule_config.difficulty", .types = kArr, .doc = "Difficulty levels (fixed_discrete)."},
      {.path = "curriculum_learning.schedule_config.max_step", .types = kArr, .doc = "Steps at which each level ends (fixed_discrete)."},
  };
  return keys;
}

// compression_training (contents of the technique objects are not described here)
std::span<const KeyInfo> compressionTrainingKeys() {
  static const KeyInfo keys[] = {
      {.path = "compression_training",
       .types = kObj,
       .doc = "DeepSpeed Compression: layer reduction, quantization and pruning during training. Removed on DeepSpeed "
              "master after 0.19.5, where the key is rejected instead of training unquantized.",
       .docsUrl = kCompressionUrl,
       .removedAfter = "0.19.5"},
      {.path = "compression_training.layer_reduction", .types = kObj, .doc = "Initialise a shallower student from chosen teacher layers."},
      {.path = "compression_training.weight_quantization", .types = kObj, .doc = "Quantization-aware training of weights (shared_parameters, different_groups)."},
      {.path = "compression_training.activation_quantization", .types = kObj, .doc = "Quantization of activations (shared_parameters, different_groups)."},
      {.path = "compression_training.sparse_pruning", .types = kObj, .doc = "Unstructured or block sparse pruning of weights."},
      {.path = "compression_training.row_pruning", .types = kObj, .doc = "Pruning of rows of linear layers (e.g. FFN intermediate)."},
      {.path = "compression_training.head_pruning", .types = kObj, .doc = "Pruning of attention heads."},
      {.path = "compression_training.channel_pruning", .types = kObj, .doc = "Pruning of convolution channels."},
  };
  return keys;
}

// MoQ
std::span<const KeyInfo> moqKeys() {
  static const KeyInfo keys[] = {
      {.path = "quantize_training",
       .types = kObj,
       .doc = "Mixture-of-Quantization (MoQ) settings; eigenvalue-based MoQ reads an eigenvalue block inside it. "
              "Removed on DeepSpeed master after 0.19.5, where the key is rejected.",
       .docsUrl = kBase,
       .removedAfter = "0.19.5"},
  };
  return keys;
}

// eigenvalue
std::span<const KeyInfo> eigenvalueKeys() {
  static const KeyInfo keys[] = {
      // In the 0.19-era config.py these values are read only from quantize_training; older releases read
      // the top-level block (which releases was not verified).
      {.path = "eigenvalue",
       .types = kObj,
       .doc = "Eigenvalue computation for MoQ. Recent releases read these settings only inside quantize_training, so "
              "a top-level block has no effect there. Removed on DeepSpeed master after 0.19.5.",
       .docsUrl = kBase,
       .removedAfter = "0.19.5"},
      {.path = "eigenvalue.enabled", .types = kBool, .defaultValue = "false", .doc = "Compute eigenvalues."},
      {.path = "eigenvalue.verbose", .types = kBool, .defaultValue = "false", .doc = "Print the computed eigenvalues."},
      {.path = "eigenvalue.max_iter", .types = kInt, .defaultValue = "100", .doc = "Power-iteration limit."},
      {.path = "eigenvalue.tol", .types = kNum, .defaultValue = "0.01", .doc = "Convergence tolerance."},
      {.path = "eigenvalue.stability", .types = kNum, .defaultValue = "1e-06", .doc = "Term added for numerical stability."},
      {.path = "eigenvalue.gas_boundary_resolution",
       .types = kInt,
       .defaultValue = "1",
       .doc = "Compute every this many gradient-accumulation boundaries."},
      {.path = "eigenvalue.layer_name",
       .types = kStr,
       .defaultValue = "\"bert.encoder.layer\"",
       .doc = "Module path of the layer list."},
      {.path = "eigenvalue.layer_num", .types = kInt, .defaultValue = "0", .doc = "Number of layers to compute for."},
  };
  return keys;
}

// sparse_attention
std::span<const KeyInfo> sparseAttentionKeys() {
  static const KeyInfo keys[] = {
      {.path = "sparse_attention",
       .types = kObj,
       .doc = "Block-sparse attention kernels (V100/A100 era, Triton based). Removed on DeepSpeed master after 0.19.5, "
              "where the key is rejected.",
       .docsUrl = kSparseUrl,
       .removedAfter = "0.19.5"},
      {.path = "sparse_attention.mode",
       .types = kStr,
       .allowed = {"\"dense\"", "\"fixed\"", "\"variable\"", "\"bigbird\"", "\"bslongformer\""},
       .defaultValue = "\"fixed\"",
       .doc = "Sparsity pattern; other values raise NotImplementedError. Each mode reads only some of the other keys."},
      {.path = "sparse_attention.block", .types = kInt, .defaultValue = "16", .doc = "Block size of the sparse layout."},
      {.path = "sparse_attention.different_layout_per_head",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Give each head its own layout."},
      {.path = "sparse_attention.num_local_blocks", .types = kInt, .defaultValue = "4", .doc = "Blocks per local window (fixed)."},
      {.path = "sparse_attention.num_global_blocks",
       .types = kInt,
       .defaultValue = "1",
       .doc = "Global blocks per window (fixed, bigbird)."},
      {.path = "sparse_attention.attention",
       .types = kStr,
       .allowed = {"\"bidirectional\"", "\"unidirectional\""},
       .defaultValue = "\"bidirectional\"",
       .doc = "Attention direction (fixed, variable)."},
      {.path = "sparse_attention.horizontal_global_attention",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Let global blocks also attend horizontally (bidirectional only)."},
      {.path = "sparse_attention.num_different_global_patterns",
       .types = kInt,
       .defaultValue = "1",
       .doc = "Distinct global patterns across heads (fixed)."},
      {.path = "sparse_attention.num_random_blocks",
       .types = kInt,
       .defaultValue = "0",
       .doc = "Random blocks per row (variable, bigbird)."},
      {.path = "sparse_attention.local_window_blocks",
       .types = kArr,
       .defaultValue = "[4]",
       .doc = "Blocks in each local window; the last value repeats (variable)."},
      {.path = "sparse_attention.global_block_indices",
       .types = kArr,
       .defaultValue = "[0]",
       .doc = "Indices of global blocks (variable, bslongformer)."},
      {.path = "sparse_attention.global_block_end_indices",
       .types = kArr | kNull,
       .defaultValue = "null",
       .doc = "End indices pairing with global_block_indices to form global ranges."},
      {.path = "sparse_attention.num_sliding_window_blocks",
       .types = kInt,
       .defaultValue = "3",
       .doc = "Blocks in the sliding window (bigbird, bslongformer)."},
  };
  return keys;
}

// progressive_layer_drop
std::span<const KeyInfo> progressiveLayerDropKeys() {
  static const KeyInfo keys[] = {
      {.path = "progressive_layer_drop",
       .types = kObj,
       .doc = "Progressive Layer Dropping for faster pre-training. Keep an enabled key in the block: the other keys are "
              "read after removing it (inferred from config.py). Removed on DeepSpeed master after 0.19.5.",
       .docsUrl = kPldUrl,
       .removedAfter = "0.19.5"},
      {.path = "progressive_layer_drop.enabled", .types = kBool, .defaultValue = "false", .doc = "Enable layer dropping."},
      {.path = "progressive_layer_drop.theta", .types = kNum, .defaultValue = "1.0", .doc = "Final keep probability scale."},
      {.path = "progressive_layer_drop.gamma", .types = kNum, .defaultValue = "0.001", .doc = "Rate at which dropping ramps up."},
  };
  return keys;
}

// weight_quantization (inference-style weight quantization at load time)
std::span<const KeyInfo> weightQuantizationKeys() {
  static const KeyInfo keys[] = {
      {.path = "weight_quantization",
       .types = kObj,
       .doc = "Quantize weights at initialisation or after loading (ZeRO-Inference style).",
       .docsUrl = kBase},
      {.path = "weight_quantization.enabled", .types = kBool, .defaultValue = "true", .doc = "Quantize weights."},
      {.path = "weight_quantization.num_bits", .types = kInt, .defaultValue = "8", .doc = "Bits per weight."},
      {.path = "weight_quantization.q_type",
       .types = kStr,
       .allowed = {"\"symmetric\"", "\"asymmetric\""},
       .defaultValue = "\"symmetric\"",
       .doc = "Quantization scheme."},
      {.path = "weight_quantization.q_groups", .types = kInt, .defaultValue = "1", .doc = "Quantization groups per tensor."},
      {.path = "weight_quantization.quantized_initialization",
       .types = kObj,
       .defaultValue = "{}",
       .doc = "Settings for quantizing while the model is initialised."},
      {.path = "weight_quantization.post_init_quant",
       .types = kObj,
       .defaultValue = "{}",
       .doc = "Settings for quantizing after the weights are loaded."},
  };
  return keys;
}

}  // namespace

Group features() {
  static const SectionInfo sections[] = {
      {.path = "autotuning", .strict = false, .doc = "Autotuner settings.", .docsUrl = kAutotuneUrl},
      {.path = "autotuning.model_info", .strict = false, .doc = "Model information for the autotuner.", .docsUrl = kAutotuneUrl},
      {.path = "autotuning.arg_mappings",
       .strict = false,
       .openKeys = true,
       .doc = "Config key to command-line argument mapping.",
       .docsUrl = kAutotuneUrl},
      {.path = "elasticity", .strict = false, .doc = "Elastic training settings.", .docsUrl = kElasticUrl},
      {.path = "data_efficiency", .strict = false, .doc = "Data efficiency settings.", .docsUrl = kDataEffUrl},
      {.path = "data_efficiency.data_sampling", .strict = false, .doc = "Data sampling settings.", .docsUrl = kDataEffUrl},
      {.path = "data_efficiency.data_sampling.curriculum_learning",
       .strict = false,
       .doc = "Curriculum learning settings.",
       .docsUrl = kDataEffUrl},
      {.path = "data_efficiency.data_sampling.curriculum_learning.curriculum_metrics",
       .strict = false,
       .openKeys = true,
       .doc = "Difficulty metrics, keyed by names you choose.",
       .docsUrl = kDataEffUrl},
      {.path = "data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.*",
       .strict = false,
       .doc = "One difficulty metric.",
       .docsUrl = kDataEffUrl},
      {.path = "data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.*.schedule_config",
       .strict = false,
       .doc = "Pacing function parameters.",
       .docsUrl = kDataEffUrl},
      {.path = "data_efficiency.data_routing", .strict = false, .doc = "Data routing settings.", .docsUrl = kDataEffUrl},
      {.path = "data_efficiency.data_routing.random_ltd", .strict = false, .doc = "Random-LTD settings.", .docsUrl = kDataEffUrl},
      {.path = "data_efficiency.data_routing.random_ltd.random_ltd_schedule",
       .strict = false,
       .doc = "Random-LTD sequence-length schedule.",
       .docsUrl = kDataEffUrl},
      {.path = "data_efficiency.data_routing.random_ltd.random_ltd_schedule.schedule_config",
       .strict = false,
       .doc = "Random-LTD schedule parameters.",
       .docsUrl = kDataEffUrl},
      {.path = "data_efficiency.data_routing.random_ltd.layer_token_lr_schedule",
       .strict = false,
       .doc = "Layer-token learning-rate schedule.",
       .docsUrl = kDataEffUrl},
      {.path = "curriculum_learning", .strict = false, .doc = "Legacy curriculum learning settings.", .docsUrl = kCurriculumUrl},
      {.path = "curriculum_learning.schedule_config",
       .strict = false,
       .doc = "Legacy curriculum pacing parameters.",
       .docsUrl = kCurriculumUrl},
      {.path = "compression_training", .strict = false, .doc = "Compression settings.", .docsUrl = kCompressionUrl},
      {.path = "eigenvalue", .strict = false, .doc = "Eigenvalue settings.", .docsUrl = kBase},
      {.path = "sparse_attention", .strict = false, .doc = "Sparse attention settings.", .docsUrl = kSparseUrl},
      {.path = "progressive_layer_drop", .strict = false, .doc = "Progressive Layer Dropping settings.", .docsUrl = kPldUrl},
      {.path = "weight_quantization", .strict = true, .doc = "Weight quantization settings.", .docsUrl = kBase},
  };
  return {{autotuningKeys(), elasticityKeys(), dataEfficiencyKeys(), legacyCurriculumLearningKeys(),
           compressionTrainingKeys(), moqKeys(), eigenvalueKeys(), sparseAttentionKeys(),
           progressiveLayerDropKeys(), weightQuantizationKeys()},
          sections};
}

}  // namespace dsls::catalog::tables

#undef DSLS_DE
#undef DSLS_DS
#undef DSLS_CL
#undef DSLS_CM
#undef DSLS_DR
#undef DSLS_LTD

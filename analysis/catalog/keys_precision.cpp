// Precision: fp16, bf16 (and the legacy top-level bfloat16), Apex amp,
// torch_autocast, data_types. Sources: deepspeed/runtime/precision_config.py,
// constants.py, config.py; reference sections 1.2, 3, 9, 10, 12.
#include "analysis/catalog/catalog_tables.h"

namespace dsls::catalog::tables {

namespace {
constexpr const char* kFp16Url = "https://www.deepspeed.ai/docs/config-json/#fp16-training-options";
constexpr const char* kBf16Url = "https://www.deepspeed.ai/docs/config-json/#bfloat16-training-options";
constexpr const char* kAmpUrl = "https://www.deepspeed.ai/docs/config-json/#automatic-mixed-precision-amp-training-options";
constexpr const char* kAutocastUrl =
    "https://www.deepspeed.ai/docs/config-json/#pytorch-automatic-mixed-precision-torchautocast-training-options";
constexpr const char* kDataTypesUrl = "https://www.deepspeed.ai/docs/config-json/#data-type-options";

// fp16
std::span<const KeyInfo> fp16Keys() {
  static const KeyInfo keys[] = {
      {.path = "fp16",
       .types = kObj,
       .doc = "Mixed-precision training in fp16 with loss scaling. Cannot be combined with bf16.",
       .docsUrl = kFp16Url},
      {.path = "fp16.enabled",
       .types = kBool,
       .defaultValue = "false",
       .autoFill = AutoFill::HfAndAccelerate,
       .doc = "Train in fp16. Enabling both fp16 and bf16 fails with \"bfloat16 and fp16 modes cannot be simultaneously "
              "enabled\"."},
      {.path = "fp16.auto_cast",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Cast floating-point inputs of the model to fp16 automatically."},
      {.path = "fp16.loss_scale",
       .types = kNum,
       .defaultValue = "0",
       .doc = "Static loss scale; 0 selects dynamic loss scaling. Since 0.18.8 negative and non-finite values are "
              "rejected."},
      {.path = "fp16.initial_scale_power",
       .types = kInt,
       .defaultValue = "16",
       .doc = "Dynamic loss scaling starts at 2 to this power."},
      {.path = "fp16.loss_scale_window",
       .types = kInt,
       .defaultValue = "1000",
       .doc = "Steps without overflow before the dynamic loss scale is raised. Must be positive: 0 is rejected since "
              "0.19.3 and caused a division by zero before."},
      {.path = "fp16.hysteresis",
       .types = kInt,
       .defaultValue = "2",
       .doc = "Overflows tolerated before the dynamic loss scale is lowered (delayed shift). Checked to be positive "
              "since 0.19.3."},
      {.path = "fp16.consecutive_hysteresis",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Refill the hysteresis counter after each step without overflow."},
      {.path = "fp16.min_loss_scale",
       .types = kNum,
       .defaultValue = "1",
       .doc = "Lower bound of the dynamic loss scale; must be positive and finite."},
      {.path = "fp16.fp16_master_weights_and_grads",
       .types = kBool,
       .defaultValue = "false",
       .stages = {1, 2, 3},
       .doc = "Keep ZeRO master weights and gradients in fp16. Needs ZeRO stage 1-3 and optimizer offload with "
              "DeepSpeedCPUAdam, which keeps optimizer states in fp32."},
      // Listed in the FP16_FORMAT string of older constants.py; not a field of the strict model from 0.17.1.
      // Whether older releases acted on it was not verified.
      {.path = "fp16.fused_mode",
       .types = kBool,
       .defaultValue = "true",
       .until = "0.17.1",
       .doc = "Old fp16 option naming the fused optimizer path. Since 0.17.1 the fp16 section is strict and rejects it.",
       .versionNote = "whether releases before 0.17.1 acted on it was not verified"},
  };
  return keys;
}

// bf16
std::span<const KeyInfo> bf16Keys() {
  static const KeyInfo keys[] = {
      {.path = "bf16",
       .types = kObj,
       .doc = "Mixed-precision training in bfloat16 (no loss scaling); needs hardware support such as A100 or newer. "
              "Cannot be combined with fp16.",
       .docsUrl = kBf16Url},
      {.path = "bf16.enabled",
       .types = kBool,
       .defaultValue = "false",
       .autoFill = AutoFill::HfAndAccelerate,
       .doc = "Train in bfloat16."},
      {.path = "bf16.immediate_grad_update",
       .types = kBool,
       .defaultValue = "false",
       .defaultChanges = {{"0.13.3", "false"}, {"0.16.5", "true"}, {"0.17.1", "false"}},
       .since = "0.13.3",
       .doc = "In the BF16 optimizer, apply each gradient to the fp32 master copy as soon as it is ready. The default "
              "flipped to true in 0.16.5 and back to false in 0.17.1."},
      {.path = "bf16.check_grad_overflow",
       .types = kBool,
       .defaultValue = "true",
       .defaultChanges = {{"0.17.1", "false"}, {"0.19.3", "true"}},
       .since = "0.17.1",
       .doc = "Skip steps whose gradients contain NaN or inf. From 0.17.1 to 0.19.2 the default was false, so such "
              "gradients were applied; true since 0.19.3."},
      {.path = "bf16.bf16_master_weights_and_grads",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.18.3",
       .stages = {1, 2, 3},
       .doc = "Keep ZeRO master weights and gradients in bf16 instead of fp32. Needs ZeRO stage 1-3; with fp32 "
              "optimizer states it also needs optimizer offload with DeepSpeedCPUAdam."},
      {.path = "bf16.bf16_optimizer_states",
       .types = kBool,
       .defaultValue = "false",
       .since = "0.18.3",
       .stages = {1, 2, 3},
       .doc = "Keep optimizer states in bf16 as well. Requires bf16_master_weights_and_grads: true."},
      {.path = "bfloat16",
       .types = kObj,
       .deprecatedBy = "bf16",
       .doc = "Old name of the bf16 section, still accepted. DeepSpeed reads it only when there is no bf16 key.",
       .docsUrl = kBf16Url},
  };
  return keys;
}

// Apex AMP
std::span<const KeyInfo> apexAmpKeys() {
  static const KeyInfo keys[] = {
      {.path = "amp",
       .types = kObj,
       .doc = "NVIDIA Apex AMP. Incompatible with ZeRO and with fp16 mode; every key other than enabled is passed to "
              "apex amp.initialize, so keep an enabled key in the block (inferred from config.py). Removed on "
              "DeepSpeed master after 0.19.5, where the key is rejected.",
       .docsUrl = kAmpUrl,
       .removedAfter = "0.19.5"},
      {.path = "amp.enabled",
       .types = kBool,
       .defaultValue = "false",
       .autoFill = AutoFill::HfTrainer,
       .doc = "Train with Apex AMP. With any ZeRO stage DeepSpeed asserts that AMP and ZeRO are not compatible."},
      {.path = "amp.opt_level",
       .types = kStr,
       .allowed = {"\"O0\"", "\"O1\"", "\"O2\"", "\"O3\""},
       .autoFill = AutoFill::HfTrainer,
       .doc = "Apex optimisation level passed to amp.initialize; HF Trainer fills \"auto\" from fp16_opt_level."},
  };
  return keys;
}

// torch.autocast
std::span<const KeyInfo> torchAutocastKeys() {
  static const KeyInfo keys[] = {
      {.path = "torch_autocast",
       .types = kObj,
       .since = "0.17.2",
       .doc = "Native PyTorch autocast managed by DeepSpeed; no torch.autocast call is needed in user code.",
       .docsUrl = kAutocastUrl},
      {.path = "torch_autocast.enabled",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Run forward passes under torch.autocast."},
      {.path = "torch_autocast.dtype",
       .types = kStr,
       .allowed = {"\"bfloat16\"", "\"float16\"", "\"bf16\"", "\"fp16\"", "\"half\"", "\"torch.bfloat16\"",
                   "\"torch.float16\"", "\"fp32\"", "\"float32\"", "\"float\"", "\"torch.float32\"", "\"int8\"",
                   "\"torch.int8\""},
       .defaultValue = "\"bfloat16\"",
       .defaultNote = "as documented; the code passes no dtype when the key is absent",
       .doc = "Lower-precision dtype for autocast and for communicating the safe modules' gradients; use bfloat16 or "
              "float16. Unknown names raise \"Invalid dtype for torch autocast\"."},
      {.path = "torch_autocast.lower_precision_safe_modules",
       .types = kArr,
       .defaultValue = "[\"torch.nn.Linear\", \"torch.nn.Conv1d\", \"torch.nn.Conv2d\", \"torch.nn.Conv3d\"]",
       .doc = "Module classes whose parameters are communicated in the lower precision; must be a list of strings."},
  };
  return keys;
}

// data_types
std::span<const KeyInfo> dataTypesKeys() {
  static const KeyInfo keys[] = {
      {.path = "data_types",
       .types = kObj,
       .doc = "Data types DeepSpeed uses for gradient accumulation and, in newer releases, parameters and buffers.",
       .docsUrl = kDataTypesUrl},
      {.path = "data_types.grad_accum_dtype",
       .types = kStr | kNull,
       .allowed = {"\"fp32\"", "\"fp16\"", "\"bf16\""},
       .defaultValue = "null",
       .defaultNote = "null: follow the model's training precision",
       .doc = "Data type in which gradients are accumulated across micro-batches."},
      {.path = "data_types.param_dtype",
       .types = kStr | kNull,
       .allowed = {"\"fp32\"", "\"fp16\"", "\"bf16\""},
       .defaultValue = "null",
       .defaultNote = "null: use the selected mixed-precision dtype",
       .doc = "Cast parameters to this dtype, like FSDP's mixed-precision policy.",
       .versionNote = "recent addition; the release that added it was not verified"},
      {.path = "data_types.buffer_dtype",
       .types = kStr | kNull,
       .allowed = {"\"fp32\"", "\"fp16\"", "\"bf16\""},
       .defaultValue = "null",
       .defaultNote = "null: keep buffers in the dtype they were loaded with",
       .doc = "Cast module buffers to this dtype. Usually best left unset: buffers such as rotary inv_freq often need fp32.",
       .versionNote = "recent addition; the release that added it was not verified"},
  };
  return keys;
}

}  // namespace

Group precision() {
  static const SectionInfo sections[] = {
      {.path = "fp16",
       .strict = true,
       .strictSince = "0.17.1",
       .doc = "fp16 settings. Since 0.17.1 unknown keys are a ValidationError; before, they were ignored.",
       .docsUrl = kFp16Url},
      {.path = "bf16",
       .strict = true,
       .strictSince = "0.17.1",
       .doc = "bf16 settings. Since 0.17.1 unknown keys (for example fp16's loss_scale copied over) are a ValidationError.",
       .docsUrl = kBf16Url},
      {.path = "bfloat16",
       .strict = true,
       .strictSince = "0.17.1",
       .doc = "Legacy spelling of the bf16 section; same keys and rules.",
       .docsUrl = kBf16Url,
       .aliasOf = "bf16"},
      {.path = "amp",
       .strict = false,
       .openKeys = true,
       .doc = "Apex AMP settings; keys other than enabled go to amp.initialize unchanged.",
       .docsUrl = kAmpUrl},
      {.path = "torch_autocast", .strict = false, .doc = "torch.autocast settings.", .docsUrl = kAutocastUrl},
      {.path = "data_types", .strict = false, .doc = "Data type settings.", .docsUrl = kDataTypesUrl},
  };
  return {{fp16Keys(), bf16Keys(), apexAmpKeys(), torchAutocastKeys(), dataTypesKeys()}, sections};
}

}  // namespace dsls::catalog::tables

// An Accelerate config file (accelerate launch --config_file, `accelerate config`'s output) whose
// `deepspeed_config:` block sets the ZeRO options inline: the ds_config Accelerate's
// DeepSpeedPlugin builds from it (train and micro batch "auto", gradient_accumulation_steps,
// zero_optimization's stage, offload devices and nvme paths, stage3_gather_16bit_weights_on_model_save,
// gradient_clipping when set, fp16/bf16 from mixed_precision), each piece mapped to the YAML key
// or value it comes from. A block that names a deepspeed_config_file builds nothing here: that
// JSON file is the config.
#pragma once

#include "analysis/embedded/embedded_config.h"

#include <optional>
#include <string_view>

namespace dsls::yaml {

std::optional<embedded::EmbeddedConfig> findAccelerateConfig(std::string_view source);

// A cheap look before any parse: the text names Accelerate's DeepSpeed keys.
bool mentionsAccelerateDeepSpeed(std::string_view source);

// The ABI version of the vendored grammar (14 for tree-sitter-yaml 0.7).
unsigned grammarAbiVersion();

}  // namespace dsls::yaml

// ds_configs written by a shell script: the JSON of a heredoc (cat <<EOT > $config_json) or of an
// echo/printf argument redirected to a .json file, each projected to the JSON text DeepSpeed
// would read, with its source map. Shell variables are unknown values, or their value when the
// script gives every assignment of the name the same literal (ZERO_STAGE=${ZERO_STAGE:-2}).
#pragma once

#include "analysis/embedded/embedded_config.h"

#include <string_view>
#include <vector>

namespace dsls::shell {

// The configs of `source` that `isConfig` accepts, in source order.
std::vector<embedded::EmbeddedConfig> findShellConfigs(std::string_view source, const embedded::IsConfig& isConfig);

// The ABI version of the vendored grammar (14 for tree-sitter-bash 0.23).
unsigned grammarAbiVersion();

}  // namespace dsls::shell

// Config dicts in a Python text: dict literals and dict(...) calls assigned to a name, returned
// from a function, or passed to deepspeed.initialize, (Seq2Seq)TrainingArguments,
// HfDeepSpeedConfig or DeepSpeedPlugin, each projected to a JSON text with its source map.
#pragma once

#include "analysis/embedded/embedded_config.h"

#include <string_view>
#include <vector>

namespace dsls::python {

// A dict's projection: literals as JSON, any other value "${expression}".
using ProjectedDict = embedded::EmbeddedConfig;
using embedded::IsConfig;

// The dicts of `source` that `isConfig` accepts, in source order; none is inside another.
std::vector<ProjectedDict> findConfigDicts(std::string_view source, const IsConfig& isConfig);

// The ABI version of the vendored grammar (14 for tree-sitter-python 0.23).
unsigned grammarAbiVersion();

}  // namespace dsls::python

// Config dicts in a Python text: dict literals and dict(...) calls assigned to a name, returned
// from a function, or passed to deepspeed.initialize, (Seq2Seq)TrainingArguments,
// HfDeepSpeedConfig or DeepSpeedPlugin, each projected to a JSON text with its source map.
#pragma once

#include "analysis/core/finding.h"
#include "analysis/python/source_map.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::python {

struct ProjectedDict {
  analysis::TextRange source;  // the dict in the Python text
  std::string json;            // its projection: literals as JSON, any other value "${expression}"
  SourceMap map;
};

// Whether a projected JSON text is a config; the caller's detection rule (analysis/facade).
using IsConfig = std::function<bool(std::string_view json)>;

// The dicts of `source` that `isConfig` accepts, in source order; none is inside another.
std::vector<ProjectedDict> findConfigDicts(std::string_view source, const IsConfig& isConfig);

// A cheap look before any parse: whether the text names a key only a DeepSpeed config has.
bool mentionsDeepSpeedKey(std::string_view source);

}  // namespace dsls::python

// A ds_config written inside another language's text (a Python dict, a shell heredoc), as the
// JSON text it stands for and the map between the two.
#pragma once

#include "analysis/core/finding.h"
#include "analysis/embedded/source_map.h"

#include <functional>
#include <string>
#include <string_view>

namespace dsls::embedded {

struct EmbeddedConfig {
  analysis::TextRange source;  // the config in the host text
  std::string json;            // its projection: literals as JSON, any other value a placeholder
  SourceMap map;
};

// Whether a projected JSON text is a config; the caller's detection rule (analysis/facade).
using IsConfig = std::function<bool(std::string_view json)>;

// A cheap look before any parse: whether the text writes a key only a DeepSpeed config has, as
// a key (quoted, or a keyword argument), not as a part of another name.
bool mentionsDeepSpeedKey(std::string_view text);

}  // namespace dsls::embedded

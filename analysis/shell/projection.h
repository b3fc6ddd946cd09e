// A shell text that holds JSON (a heredoc's body, an echo argument) written as the JSON text
// DeepSpeed would read once the shell expanded it, with the source map.
#pragma once

#include "analysis/embedded/embedded_config.h"
#include "analysis/shell/variables.h"

#include <tree_sitter/api.h>

namespace dsls::shell {

// `body` is a heredoc_body, raw_string or string node; its expansions (named children) are
// replaced by their literal value or a placeholder, quotes and escapes of a string removed.
embedded::EmbeddedConfig projectJson(std::string_view source, TSNode body, const ScriptValues& values);

}  // namespace dsls::shell

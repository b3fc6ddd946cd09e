// Reads dsls settings from initializationOptions or the "dsls" configuration section.
#pragma once

#include "analysis/core/settings.h"
#include "protocol/jsonrpc.h"

#include <string>
#include <vector>

namespace dsls::lsp {

// Merges the keys present in `json` (a flat object) into `settings`; unknown keys and
// ill-typed values are skipped and described in `problems`.
void mergeSettings(const protocol::Json& json, analysis::Settings& settings, std::vector<std::string>& problems);

}  // namespace dsls::lsp

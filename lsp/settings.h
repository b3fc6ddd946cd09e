// Reads dsls settings from initializationOptions or the "dsls" configuration section: the
// editor keys of analysis/core/setting_table.h.
#pragma once

#include "protocol/jsonrpc.h"
#include "workspace/setting_values.h"

#include <string>
#include <vector>

namespace dsls::lsp {

// Merges the keys present in `json` (a flat object) into `values`; unknown keys and wrong values
// are left out and described in `problems` ("dsls.worldSize must be a positive integer").
void mergeSettings(const protocol::Json& json, workspace::SettingValues& values, std::vector<std::string>& problems);

}  // namespace dsls::lsp

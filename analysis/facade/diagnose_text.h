// dsls.diagnoseText: a pasted terminal selection or whole log in, findings and a report out.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string_view>

namespace dsls::analysis {

// {"findings": [...], "markdown": "..."} as documented in docs/logs/report-schema.md.
nlohmann::json diagnoseText(std::string_view text);

}  // namespace dsls::analysis

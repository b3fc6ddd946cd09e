// dsls.diagnoseText: a pasted terminal selection or whole log in, findings and a report out.
#pragma once

#include "analysis/core/cancel.h"
#include "analysis/core/settings.h"

#include <nlohmann/json_fwd.hpp>

#include <string_view>

namespace dsls::analysis {

// {"findings": [...], "markdown": "..."} as documented in docs/logs/report-schema.md. The
// versions the settings name stand in for those the text does not print, as in `dsls check`.
// A cancelled diagnosis throws Cancelled.
nlohmann::json diagnoseText(std::string_view text, const Settings& settings = {}, const Cancellation& cancel = {});

}  // namespace dsls::analysis

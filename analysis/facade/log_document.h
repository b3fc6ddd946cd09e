// The facade's bridge to the log analyser (analysis/logs).
#pragma once

#include "analysis/core/cancel.h"
#include "analysis/core/features.h"
#include "analysis/core/settings.h"
#include "analysis/core/finding.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::logs {
struct LogReport;
}

namespace dsls::analysis {

// The versions the settings name stand in for those the log does not print, as in `dsls check`.
std::shared_ptr<const logs::LogReport> analyzeLog(std::string_view text, const Settings& settings = {},
                                                  const Cancellation& cancel = {});
std::vector<Finding> logFindings(const logs::LogReport& report, const std::string& documentName);
std::optional<HoverInfo> logHover(const logs::LogReport& report, std::size_t offset);

// The report as Markdown (SVG timeline included) and as JSON (docs/logs/report-schema.md).
std::string logReportMarkdown(const logs::LogReport& report);
nlohmann::json logReportJson(const logs::LogReport& report);

}  // namespace dsls::analysis

#include "analysis/facade/log_document.h"

#include "analysis/logs/analyze.h"
#include "analysis/logs/diagnostics.h"

#include <nlohmann/json.hpp>

namespace dsls::analysis {

std::shared_ptr<const logs::LogReport> analyzeLog(std::string_view text, const Settings& settings,
                                                  const Cancellation& cancel) {
  return std::make_shared<const logs::LogReport>(
      logs::analyzeText(text, logs::AnalyzerOptions::fromSettings(settings), cancel));
}

std::vector<Finding> logFindings(const logs::LogReport& report, const std::string& documentName) {
  return logs::toDiagnostics(report, documentName);
}

std::optional<HoverInfo> logHover(const logs::LogReport& report, std::size_t offset) {
  auto markdown = logs::hoverAt(report, offset);
  if (!markdown) return std::nullopt;
  // The hover covers the evidence line under the cursor.
  for (const auto& f : report.findings)
    for (const auto& e : f.evidence)
      if (offset >= e.byteOffset && offset <= e.byteOffset + e.length)
        return HoverInfo{*markdown, {e.byteOffset, e.byteOffset + e.length}};
  return HoverInfo{*markdown, {offset, offset}};
}

std::string logReportMarkdown(const logs::LogReport& report) { return report.markdown(); }

nlohmann::json logReportJson(const logs::LogReport& report) { return report.toJson(); }

}  // namespace dsls::analysis

#include "analysis/facade/diagnose_text.h"

#include "analysis/logs/analyze.h"

#include <nlohmann/json.hpp>

namespace dsls::analysis {

nlohmann::json diagnoseText(std::string_view text, const Settings& settings, const Cancellation& cancel) {
  logs::LogReport report = logs::analyzeText(text, logs::AnalyzerOptions::fromSettings(settings), cancel);
  nlohmann::json out = report.toJson();
  out["markdown"] = report.markdown();
  return out;
}

}  // namespace dsls::analysis

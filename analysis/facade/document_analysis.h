// The analysis of one document, computed once per revision and shared (read-only)
// by every feature: diagnostics, hover, code actions, completion, inlay hints, outline, links.
#pragma once

#include "analysis/core/finding.h"
#include "analysis/facade/document_kind.h"
#include "analysis/core/settings.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dsls::analysis {

class ConfigAnalysis;  // analysis/config
}
namespace dsls::logs {
struct LogReport;
}

namespace dsls::analysis {

struct DocumentAnalysis {
  DocumentKind kind = DocumentKind::Other;
  std::string name;  // path or URI as the caller gave it
  // The analysed text (a snapshot); empty for a ds_config, whose text is config->text().
  std::string text;
  Settings settings;
  std::vector<Finding> findings;  // after rule overrides
  std::shared_ptr<const ConfigAnalysis> config;  // for ds_configs
  std::shared_ptr<const logs::LogReport> log;    // for logs
};

// `kind` given: the caller has decided what the document is (a file named as a config on the
// command line); otherwise classifyDocument decides.
std::shared_ptr<const DocumentAnalysis> analyzeDocument(std::string name, std::string_view languageId,
                                                        std::string text, const Settings& settings,
                                                        std::optional<DocumentKind> kind = std::nullopt);

// Applies the user's per-rule overrides (off or another severity) to findings.
void applyRuleOverrides(std::vector<Finding>& findings, const Settings& settings);

}  // namespace dsls::analysis

// The analysis of one document, computed once per revision and shared (read-only)
// by every feature: diagnostics, hover, code actions, completion, inlay hints, outline, links.
#pragma once

#include "analysis/core/cancel.h"
#include "analysis/core/finding.h"
#include "analysis/facade/document_kind.h"
#include "analysis/core/settings.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dsls::analysis {

class ConfigAnalysis;  // analysis/config
struct EmbeddedConfigs;  // embedded_document.h
}
namespace dsls::logs {
struct LogReport;
}

namespace dsls::analysis {

struct DocumentAnalysis {
  DocumentKind kind = DocumentKind::Other;
  std::string name;  // path or URI as the caller gave it
  // The analysed text, shared with whoever gave it (the server's open document); null for a
  // ds_config, whose text is config->text().
  std::shared_ptr<const std::string> text;
  Settings settings;
  std::vector<Finding> findings;  // after rule overrides
  std::shared_ptr<const ConfigAnalysis> config;  // for ds_configs
  std::shared_ptr<const logs::LogReport> log;    // for logs
  std::shared_ptr<const EmbeddedConfigs> embedded;  // for Python sources and shell scripts that write configs
};

// A requested `cancel` stops the analysis of a ds_config early with analysis::Cancelled.
// `kind` given: the caller has decided what the document is (a file named as a config on the
// command line); otherwise classifyDocument decides. `previous`, the analysis of an earlier text
// of the same document, makes an edit inside one value of a ds_config cheaper; the result does
// not depend on it.
std::shared_ptr<const DocumentAnalysis> analyzeDocument(std::string name, std::string_view languageId,
                                                        std::shared_ptr<const std::string> text,
                                                        const Settings& settings,
                                                        std::optional<DocumentKind> kind = std::nullopt,
                                                        const Cancellation& cancel = {},
                                                        const DocumentAnalysis* previous = nullptr);
inline std::shared_ptr<const DocumentAnalysis> analyzeDocument(std::string name, std::string_view languageId,
                                                               std::string text, const Settings& settings,
                                                               std::optional<DocumentKind> kind = std::nullopt) {
  return analyzeDocument(std::move(name), languageId, std::make_shared<const std::string>(std::move(text)), settings,
                         kind);
}

// Applies the user's per-rule overrides (off or another severity) to findings.
void applyRuleOverrides(std::vector<Finding>& findings, const Settings& settings);

}  // namespace dsls::analysis

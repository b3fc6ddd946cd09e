#include "analysis/facade/document_analysis.h"

#include "analysis/config/config_analysis.h"
#include "analysis/facade/log_document.h"
#include "analysis/facade/embedded_document.h"

#include <algorithm>

namespace dsls::analysis {

void applyRuleOverrides(std::vector<Finding>& findings, const Settings& settings) {
  if (settings.ruleOverrides.empty()) return;
  std::vector<Finding> kept;
  kept.reserve(findings.size());
  for (auto& f : findings) {
    auto it = settings.ruleOverrides.find(f.code);
    if (it == settings.ruleOverrides.end()) {
      kept.push_back(std::move(f));
    } else if (it->second) {
      f.severity = *it->second;
      kept.push_back(std::move(f));
    }
  }
  findings = std::move(kept);
}

std::shared_ptr<const DocumentAnalysis> analyzeDocument(std::string name, std::string_view languageId,
                                                        std::shared_ptr<const std::string> text,
                                                        const Settings& settings, std::optional<DocumentKind> kind,
                                                        const Cancellation& cancel, const DocumentAnalysis* previous) {
  auto result = std::make_shared<DocumentAnalysis>();
  // A Python, shell or YAML document is parsed once, by its analysis, which leaves it Other when
  // it writes no config; classifying it first would parse it twice.
  if (!kind)
    if (auto host = hostLanguageByName(name, languageId)) kind = documentKindOf(*host);
  result->kind = kind ? *kind : classifyDocument(name, languageId, *text, settings);
  result->name = std::move(name);
  result->settings = settings;
  switch (result->kind) {
    case DocumentKind::DsConfig: {
      // The config analysis shares the caller's text: no copy of it.
      auto config = std::make_shared<ConfigAnalysis>(std::move(text), settings, cancel,
                                                     previous ? previous->config.get() : nullptr);
      result->findings = config->findings();
      result->config = std::move(config);
      break;
    }
    case DocumentKind::Log: {
      result->log = analyzeLog(*text, settings, cancel);
      result->findings = logFindings(*result->log, result->name);
      break;
    }
    case DocumentKind::PythonConfig:
    case DocumentKind::ShellConfig:
    case DocumentKind::AccelerateConfig: {
      // Told it is one (dsls check after its prefilter) but holding no config: left alone.
      result->embedded = analyzeEmbedded(*hostLanguageOf(result->kind), *text, settings, cancel);
      if (result->embedded) result->findings = embeddedFindings(*result->embedded);
      else result->kind = DocumentKind::Other;
      break;
    }
    case DocumentKind::Other: break;
  }
  applyRuleOverrides(result->findings, settings);
  if (!result->config) result->text = std::move(text);
  return result;
}

}  // namespace dsls::analysis

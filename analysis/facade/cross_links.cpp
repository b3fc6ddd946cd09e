#include "analysis/facade/cross_links.h"

#include "analysis/config/config_analysis.h"
#include "analysis/logs/report/log_report.h"

#include <algorithm>

namespace dsls::analysis {

CrossLinks crossLink(const DocumentAnalysis& config, const DocumentAnalysis& log) {
  CrossLinks links;
  if (!config.config || !log.log) return links;
  const json::Node* root = config.config->model().root;
  for (const logs::LogFinding& lf : log.log->findings) {
    if (lf.evidence.empty() || lf.configKeys.empty()) continue;
    const logs::Evidence& first = lf.evidence.front();
    TextRange evidence{first.byteOffset, first.byteOffset + first.length};
    std::string code = "log-" + lf.id;
    // The log's diagnostic for this finding: same code, on its first evidence line.
    auto logIndex = std::find_if(log.findings.begin(), log.findings.end(), [&](const Finding& f) {
      return f.code == code && f.range.begin == evidence.begin;
    });
    for (const std::string& key : lf.configKeys) {
      const json::Member* member = config::memberAt(root, key);
      if (!member || logIndex == log.findings.end()) continue;
      links.forLog.push_back({static_cast<std::size_t>(logIndex - log.findings.begin()),
                              {config.name, member->keyRange, "config key " + key + " in this run's ds_config"}});
    }
    for (const std::string& rule : lf.ruleCodes) {
      for (std::size_t i = 0; i < config.findings.size(); ++i) {
        if (config.findings[i].code != rule) continue;
        links.forConfig.push_back(
            {i, {log.name, evidence, "log evidence (line " + std::to_string(first.line) + "): " + lf.title}});
      }
    }
  }
  return links;
}

}  // namespace dsls::analysis

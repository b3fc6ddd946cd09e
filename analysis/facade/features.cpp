#include "analysis/facade/features.h"

#include "analysis/config/config_features.h"
#include "analysis/facade/log_document.h"

#include <algorithm>

namespace dsls::analysis {

std::optional<HoverInfo> hoverAt(const DocumentAnalysis& d, std::size_t offset) {
  if (d.config) return config::hover(*d.config, offset);
  if (d.log) return logHover(*d.log, offset);
  return std::nullopt;
}

std::vector<Action> actionsFor(const DocumentAnalysis& d, TextRange selection, bool) {
  if (d.config) return config::actions(*d.config, d.findings, selection);
  // Log findings carry no edits: a log is evidence, not something to fix.
  return {};
}

std::optional<Action> fixAll(const DocumentAnalysis& d) {
  Action all{"Fix all safe dsls findings", Action::Kind::FixAll, {}, false, {}};
  for (std::size_t i = 0; i < d.findings.size(); ++i) {
    for (const auto& fix : d.findings[i].fixes) {
      if (!fix.safe) continue;
      bool clashes = std::any_of(fix.edits.begin(), fix.edits.end(), [&](const TextEdit& e) {
        return std::any_of(all.edits.begin(), all.edits.end(), [&](const TextEdit& o) {
          return (e.range.begin < o.range.end && o.range.begin < e.range.end) || e.range.begin == o.range.begin;
        });
      });
      if (clashes) continue;  // the next run picks it up once the text has changed
      all.edits.insert(all.edits.end(), fix.edits.begin(), fix.edits.end());
      all.findings.push_back(i);
      break;  // one fix per finding: the first safe one is its preferred fix
    }
  }
  if (all.edits.empty()) return std::nullopt;
  std::sort(all.edits.begin(), all.edits.end(),
            [](const TextEdit& a, const TextEdit& b) { return a.range.begin < b.range.begin; });
  return all;
}

std::vector<InlayHintInfo> inlayHints(const DocumentAnalysis& d, TextRange visible) {
  if (d.config) return config::inlayHints(*d.config, visible);
  return {};
}

std::vector<CompletionInfo> completeAt(const DocumentAnalysis& d, std::size_t offset, bool snippetsAllowed) {
  if (d.config) return config::complete(*d.config, offset, snippetsAllowed);
  return {};
}

std::vector<SymbolInfo> outline(const DocumentAnalysis& d) {
  if (d.config) return config::outline(*d.config);
  return {};
}

std::vector<LinkInfo> links(const DocumentAnalysis& d) {
  if (d.config) return config::links(*d.config);
  return {};
}

}  // namespace dsls::analysis

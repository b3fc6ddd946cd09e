#include "analysis/facade/features.h"

#include "analysis/config/config_features.h"
#include "analysis/core/limits.h"
#include "analysis/facade/log_document.h"
#include "analysis/facade/embedded_document.h"

#include <fmt/format.h>

#include <algorithm>

namespace dsls::analysis {
namespace {

// The config features that read the model and the tree; off for a syntax-only analysis.
const ConfigAnalysis* fullConfig(const DocumentAnalysis& d) {
  return d.config && !d.config->syntaxOnly() ? d.config.get() : nullptr;
}

std::string_view fileName(std::string_view name) {
  if (auto slash = name.find_last_of('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  return name;
}

}  // namespace

std::optional<HoverInfo> hoverAt(const DocumentAnalysis& d, std::size_t offset) {
  if (const auto* c = fullConfig(d)) return config::hover(*c, d.findings, offset);
  if (d.log) return logHover(*d.log, offset);
  if (d.embedded) return embeddedHover(*d.embedded, offset);
  return std::nullopt;
}

std::vector<Action> actionsFor(const DocumentAnalysis& d, TextRange selection, bool) {
  if (d.config) return config::actions(*d.config, d.findings, selection);
  if (d.embedded) return embeddedActions(*d.embedded, selection);
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
  if (const auto* c = fullConfig(d)) return config::inlayHints(*c, visible);
  if (d.embedded) return embeddedInlayHints(*d.embedded, visible);
  return {};
}

std::vector<CompletionInfo> completeAt(const DocumentAnalysis& d, std::size_t offset, bool snippetsAllowed) {
  if (const auto* c = fullConfig(d)) {
    auto items = config::complete(*c, offset, snippetsAllowed);
    if (items.size() > kMaxCompletionItems) items.resize(kMaxCompletionItems);
    return items;
  }
  return {};
}

std::vector<SymbolInfo> outline(const DocumentAnalysis& d) {
  if (const auto* c = fullConfig(d)) return config::outline(*c);
  return {};
}

std::vector<LinkInfo> links(const DocumentAnalysis& d) {
  if (const auto* c = fullConfig(d)) return config::links(*c);
  return {};
}

std::string sizeNotice(const DocumentAnalysis& d) {
  if (!d.config || !d.config->syntaxOnly()) return {};
  return fmt::format(
      "dsls checks only the JSON syntax of {} (errors, comments, duplicate keys): the file is {:.1f} MiB, over the "
      "{} MiB up to which it runs the DeepSpeed rules, outline, inlay hints, links, hover and completion.",
      fileName(d.name), static_cast<double>(d.config->text().size()) / (1 << 20), kMaxConfigBytes >> 20);
}

}  // namespace dsls::analysis

// Inlay hints for implicit values that matter: the effective overlap_comm and
// contiguous_gradients after the ZeRO stage, and what happens to "auto".
#include "analysis/catalog/catalog.h"
#include "analysis/config/config_features.h"
#include "analysis/core/limits.h"
#include "analysis/json/path.h"

#include <fmt/format.h>

namespace dsls::config {

using analysis::InlayHintInfo;

namespace {

bool inside(std::size_t offset, analysis::TextRange visible) { return offset >= visible.begin && offset <= visible.end; }

std::string flagHint(std::string_view name, const Resolved<bool>& r) {
  return fmt::format("{}: {} ({})", name, r.value ? (*r.value ? "true" : "false") : "?",
                     r.provenance == Provenance::Forced ? "forced" : "default");
}

// Members outside the visible range are skipped unvisited; the walk stops after
// kMaxWalkedMembers members or kMaxInlayHints hints.
void autoHints(const json::Node& node, std::vector<std::string>& path, analysis::TextRange visible,
               std::vector<InlayHintInfo>& out, int depth, std::size_t& visits) {
  if (node.kind != json::Kind::Object || depth > 16) return;
  for (const auto& m : node.members()) {
    if (m.range().end < visible.begin) continue;
    if (m.range().begin > visible.end || visits == 0 || out.size() >= analysis::kMaxInlayHints) return;
    --visits;
    path.emplace_back(m.key);
    if (m.value.kind == json::Kind::String && m.value.string == "auto" && inside(m.value.range.end, visible)) {
      std::string dotted = json::joinPath(path);
      const catalog::KeyInfo* key = catalog::findKey(dotted);
      std::string label, tooltip;
      using F = catalog::AutoFill;
      F fill = key ? key->autoFill : F::None;
      if (fill == F::HfTrainer || fill == F::Accelerate || fill == F::HfAndAccelerate) {
        label = fill == F::HfTrainer ? "filled by HF Trainer at launch"
                : fill == F::Accelerate ? "filled by Accelerate at launch"
                                        : "filled by HF at launch";
        tooltip = "The Hugging Face integration replaces \"auto\" with a value from its own arguments before "
                  "DeepSpeed reads the config.";
      } else if (fill == F::DeepSpeedNative) {
        label.clear();
      } else {
        const catalog::SectionInfo* section = catalog::findSection(catalog::parentPath(dotted));
        bool strict = section && section->strict;
        label = strict ? fmt::format("not filled: default {}", key && !key->defaultValue.empty() ? key->defaultValue : "applies")
                       : "not filled: the string \"auto\" reaches DeepSpeed";
        tooltip = strict ? "Nothing fills \"auto\" for this key; DeepSpeed drops it and uses the default."
                         : "Nothing fills \"auto\" for this key, and DeepSpeed reads it as the string \"auto\".";
      }
      if (!label.empty()) out.push_back({m.value.range.end, label, tooltip});
    }
    autoHints(m.value, path, visible, out, depth + 1, visits);
    path.pop_back();
  }
}

}  // namespace

std::vector<InlayHintInfo> inlayHints(const analysis::ConfigAnalysis& a, analysis::TextRange visible) {
  std::vector<InlayHintInfo> out;
  const ConfigModel& m = a.model();
  const ZeroModel& z = m.zero;
  if (z.section && !z.legacyBool && z.stage.value && *z.stage.value > 0) {
    // After the stage value (or the section key when the stage is implicit).
    std::size_t at = z.stage.member ? z.stage.member->value.range.end : z.section->keyRange.end;
    std::vector<std::string> parts;
    if (z.overlapComm.provenance != Provenance::Explicit) parts.push_back(flagHint("overlap_comm", z.overlapComm));
    if (z.contiguousGradients.provenance != Provenance::Explicit)
      parts.push_back(flagHint("contiguous_gradients", z.contiguousGradients));
    if (!parts.empty() && inside(at, visible)) {
      std::string label;
      for (const auto& p : parts) label += (label.empty() ? "" : ", ") + p;
      out.push_back({at, label, "Effective values DeepSpeed will use for keys this file does not set."});
    }
  }
  if (m.root) {
    std::vector<std::string> path;
    std::size_t visits = analysis::kMaxWalkedMembers;
    autoHints(*m.root, path, visible, out, 0, visits);
  }
  return out;
}

}  // namespace dsls::config

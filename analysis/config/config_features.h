// Editor features for ds_config documents.
#pragma once

#include "analysis/config/config_analysis.h"
#include "analysis/core/features.h"

#include <optional>
#include <vector>

namespace dsls::config {

// `findings` are the published ones (after rule overrides): the hover lists those under the cursor.
std::optional<analysis::HoverInfo> hover(const analysis::ConfigAnalysis&, const std::vector<analysis::Finding>& findings,
                                         std::size_t offset);
// `findings` are the published ones (after rule overrides); indices in Action::findings refer to them.
std::vector<analysis::Action> actions(const analysis::ConfigAnalysis&, const std::vector<analysis::Finding>& findings,
                                      analysis::TextRange selection);
std::vector<analysis::InlayHintInfo> inlayHints(const analysis::ConfigAnalysis&, analysis::TextRange visible);
std::vector<analysis::SymbolInfo> outline(const analysis::ConfigAnalysis&);
std::vector<analysis::LinkInfo> links(const analysis::ConfigAnalysis&);
std::vector<analysis::CompletionInfo> complete(const analysis::ConfigAnalysis&, std::size_t offset, bool snippets);

// The markdown explanation of the overlap_comm race for this config (used by hover and docs).
std::string raceExplanation(const ConfigModel& model, const analysis::Settings& settings);

}  // namespace dsls::config

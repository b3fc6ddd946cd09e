// A document of another language that writes ds_configs (a Python source building dicts, a
// shell script writing JSON in a heredoc): each config's JSON projection analysed as a
// ds_config, its findings and editor features carried back to the host text.
#pragma once

#include "analysis/core/cancel.h"
#include "analysis/core/features.h"
#include "analysis/core/finding.h"
#include "analysis/core/settings.h"

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace dsls::analysis {

enum class HostLanguage { Python, Shell, AccelerateYaml };

struct EmbeddedConfigs;  // embedded_document.cpp

// Whether a host text holds a config (a cheap prefilter first, then the parse).
bool holdsEmbeddedConfig(HostLanguage, std::string_view text);
// The prefilter alone: whether the text names a key only a DeepSpeed config has (for YAML:
// Accelerate's DeepSpeed keys). A text for which it is false holds no config; one for which it
// is true may.
bool mayHoldEmbeddedConfig(HostLanguage, std::string_view text);

// Null when the text holds no config.
std::shared_ptr<const EmbeddedConfigs> analyzeEmbedded(HostLanguage, std::string_view text, const Settings& settings,
                                                       const Cancellation& cancel);
// Every config's findings, in host offsets, merged in source order (before rule overrides).
std::vector<Finding> embeddedFindings(const EmbeddedConfigs&);
std::optional<HoverInfo> embeddedHover(const EmbeddedConfigs&, std::size_t offset);
std::vector<Action> embeddedActions(const EmbeddedConfigs&, TextRange selection);
std::vector<InlayHintInfo> embeddedInlayHints(const EmbeddedConfigs&, TextRange visible);

}  // namespace dsls::analysis

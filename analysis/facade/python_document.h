// A Python document that builds ds_configs as dicts: each dict's JSON projection analysed as a
// ds_config, its findings and editor features carried back to the Python text.
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

struct PythonConfigs;  // python_document.cpp

// Whether a Python text holds a config dict (a cheap prefilter first, then the parse).
bool pythonHoldsConfig(std::string_view text);
// The prefilter alone: whether the text names a key only a DeepSpeed config has. A text for
// which it is false holds no config; one for which it is true may.
bool pythonMayHoldConfig(std::string_view text);

// Null when the text holds no config dict.
std::shared_ptr<const PythonConfigs> analyzePython(std::string_view text, const Settings& settings,
                                                   const Cancellation& cancel);
// Every config's findings, in Python offsets, merged in source order (before rule overrides).
std::vector<Finding> pythonFindings(const PythonConfigs&);
std::optional<HoverInfo> pythonHover(const PythonConfigs&, std::size_t offset);
std::vector<Action> pythonActions(const PythonConfigs&, TextRange selection);
std::vector<InlayHintInfo> pythonInlayHints(const PythonConfigs&, TextRange visible);

}  // namespace dsls::analysis

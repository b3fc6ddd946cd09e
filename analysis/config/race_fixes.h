// The two fixes for the overlap_comm race, shared by the diagnostic and by the code
// actions offered on a selected overlap_comm / contiguous_gradients key.
#pragma once

#include "analysis/config/config_model.h"
#include "analysis/core/finding.h"

#include <optional>
#include <string_view>

namespace dsls::config {

// "Set overlap_comm to false": preferred, covers every ZeRO-1/2 variant. Safe (applied by
// --fix and fix-all) only when `releaseAffected`: the configured DeepSpeed release is known to
// have the race; with the version unknown it is offered, since turning the overlap off slows
// a run that may not need it. nullopt when there is no zero_optimization object to edit.
std::optional<analysis::Fix> overlapCommOffFix(std::string_view text, const ConfigModel& model, bool releaseAffected);

// "Set contiguous_gradients to false": covers only the bucket races; nullopt where an
// offloaded optimizer forces the flag back on (ZeRO-1/2) or there is nothing to edit.
std::optional<analysis::Fix> contiguousGradientsOffFix(std::string_view text, const ConfigModel& model);

}  // namespace dsls::config

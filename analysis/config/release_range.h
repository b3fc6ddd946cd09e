// The config rules over a range of DeepSpeed releases (a project that declares
// "deepspeed>=0.18.6,<0.19.0"): the rules run once per admitted release and their findings are
// combined by code and place. A finding every release gives stays definite, its message naming the
// range; one only some releases give becomes a warning naming them, its fixes not safe.
#pragma once

#include "analysis/config/rule.h"

#include <functional>
#include <string>
#include <vector>

namespace dsls::config {

// Runs `rules` over settings.deepspeedReleases (deepspeedVersion empty, deepspeedRange set).
std::vector<analysis::Finding> findingsOverReleases(std::string_view text, const json::Document& doc,
                                                    const analysis::Settings& settings,
                                                    const std::function<void()>& checkCancelled);

// "0.18.6 to 0.18.9", "0.19.0 to 0.19.2, 0.19.4": the releases of `present` (indices into
// `admitted`, ascending) as runs of consecutive admitted releases.
std::string releaseRuns(const std::vector<std::string>& admitted, const std::vector<std::size_t>& present);

// The overlap-comm-race message over a range: which known bug applies to which release.
std::string overlapRaceRangeMessage(const json::Document& doc, const analysis::Settings& settings,
                                    const std::vector<std::size_t>& present);

}  // namespace dsls::config

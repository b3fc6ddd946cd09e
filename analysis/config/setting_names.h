// How a message names a setting, for the place it is read: the command line names its flag and
// [tool.dsls], the editor its setting (Settings::commandLine).
#pragma once

#include "analysis/core/settings.h"

#include <string>

namespace dsls::config {

// "set the release (dsls.deepspeedVersion) or pin deepspeed in requirements.txt", or the command line's words.
std::string howToSetDeepSpeedVersion(const analysis::Settings& settings);
// "Set the launcher (dsls.launcher: hf, accelerate or deepspeed)", or with the flag and [tool.dsls].
std::string howToSetLauncher(const analysis::Settings& settings);
// "the world size from dsls.worldSize" or "... from --world-size or world-size in [tool.dsls]".
std::string worldSizeSource(const analysis::Settings& settings);

}  // namespace dsls::config

#include "analysis/config/setting_names.h"

namespace dsls::config {

std::string howToSetDeepSpeedVersion(const analysis::Settings& s) {
  if (s.commandLine)
    return "pass --deepspeed-version, set deepspeed-version in [tool.dsls] of pyproject.toml, or pin deepspeed in "
           "requirements.txt";
  return "set dsls.deepspeedVersion or pin deepspeed in requirements.txt";
}

std::string howToSetLauncher(const analysis::Settings& s) {
  if (s.commandLine) return "Pass --launcher hf (or accelerate, deepspeed), or set launcher in [tool.dsls],";
  return "Set dsls.launcher (hf, accelerate or deepspeed)";
}

std::string worldSizeSource(const analysis::Settings& s) {
  return s.commandLine ? "the world size from --world-size or [tool.dsls]" : "the world size in the settings";
}

}  // namespace dsls::config

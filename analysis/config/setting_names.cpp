#include "analysis/config/setting_names.h"

#include "analysis/core/setting_table.h"

namespace dsls::config {

using analysis::SettingId;
using analysis::settingName;

std::string howToSetDeepSpeedVersion(const analysis::Settings& s) {
  return "set the release (" + settingName(SettingId::DeepSpeedVersion, s.commandLine) +
         ") or pin deepspeed in requirements.txt";
}

std::string howToSetLauncher(const analysis::Settings& s) {
  return "Set the launcher (" + settingName(SettingId::Launcher, s.commandLine) + ": " + analysis::settingChoicesText(analysis::SettingType::Launcher) + ")";
}

std::string worldSizeSource(const analysis::Settings& s) {
  return "the world size from " + settingName(SettingId::WorldSize, s.commandLine);
}

}  // namespace dsls::config

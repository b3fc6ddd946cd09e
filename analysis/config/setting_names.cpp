#include "analysis/config/setting_names.h"

#include "analysis/core/setting_table.h"

namespace dsls::config {

using analysis::SettingId;
using analysis::settingName;

namespace {

// "hf, accelerate or deepspeed"
std::string launcherChoices() {
  std::string out;
  const auto words = analysis::launcherWords();
  for (std::size_t i = 0; i < words.size(); ++i)
    out.append(i == 0 ? "" : i + 1 == words.size() ? " or " : ", ").append(words[i]);
  return out;
}

}  // namespace

std::string howToSetDeepSpeedVersion(const analysis::Settings& s) {
  return "set the release (" + settingName(SettingId::DeepSpeedVersion, s.commandLine) +
         ") or pin deepspeed in requirements.txt";
}

std::string howToSetLauncher(const analysis::Settings& s) {
  return "Set the launcher (" + settingName(SettingId::Launcher, s.commandLine) + ": " + launcherChoices() + ")";
}

std::string worldSizeSource(const analysis::Settings& s) {
  return "the world size from " + settingName(SettingId::WorldSize, s.commandLine);
}

}  // namespace dsls::config

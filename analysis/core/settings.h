// What the analysis needs to know about the run a document belongs to.
#pragma once

#include "analysis/core/finding.h"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::analysis {

// What starts the run, which decides who reads the config and what "auto" means.
enum class Launcher { Unknown, HfTrainer, Accelerate, DeepSpeed };

// "hf", "accelerate", "deepspeed": the words every setting uses, in the order of the values.
std::span<const std::string_view> launcherWords();
// The word for one launcher; empty for Unknown.
std::string_view launcherWord(Launcher launcher);
// The launcher a word names; nullopt when it names none.
std::optional<Launcher> parseLauncher(std::string_view word);
// The HF Trainer and Accelerate fill "auto" values and read the config with json.load.
inline bool hfFillsAuto(Launcher launcher) { return launcher == Launcher::HfTrainer || launcher == Launcher::Accelerate; }

struct Settings {
  std::string deepspeedVersion;  // as given ("0.14.2"); empty = unknown
  std::string deepspeedVersionSource;  // where it came from, for messages ("settings", "requirements.txt")
  // When the project declares a range instead of one release (deepspeedVersion then empty): the
  // specifier (">=0.18.6,<0.19.0") and the known releases it admits, oldest first. The version-aware
  // rules are then evaluated for each of them (analysis/config/config_analysis.cpp).
  std::string deepspeedRange;
  std::vector<std::string> deepspeedReleases;
  std::string torchVersion;
  std::string torchVersionSource;
  std::optional<long long> worldSize;
  Launcher launcher = Launcher::Unknown;
  // Where the launcher came from, for messages: "--launcher", "scripts/train.sh:12 passes it with
  // --deepspeed_config".
  std::string launcherSource;
  // What HF Trainer fills "bf16": {"enabled": "auto"} with, as the project's launch command or
  // framework YAML says (--bf16 True); unknown when unset. Read where launcherSource says.
  std::optional<bool> launchBf16;
  std::optional<bool> torchCompile;  // the model is wrapped in torch.compile; unknown when unset
  // Per rule code: a new severity, or nullopt to switch the rule off.
  std::map<std::string, std::optional<Severity>> ruleOverrides;
  // Where the messages are read: the command line names its flags and [tool.dsls], the editor
  // its settings (dsls.deepspeedVersion).
  bool commandLine = false;
  // File-name globs that mark ds_config files, in addition to the built-in ones.
  std::vector<std::string> configGlobs;
};

}  // namespace dsls::analysis

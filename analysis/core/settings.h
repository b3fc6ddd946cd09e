// What the analysis needs to know about the run a document belongs to.
#pragma once

#include "analysis/core/finding.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dsls::analysis {

struct Settings {
  std::string deepspeedVersion;  // as given ("0.14.2"); empty = unknown
  std::string deepspeedVersionSource;  // where it came from, for messages ("settings", "requirements.txt")
  std::string torchVersion;
  std::string torchVersionSource;
  std::optional<long long> worldSize;
  std::string launcher;  // "hf", "accelerate", "deepspeed" or empty (unknown)
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

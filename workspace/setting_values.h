// The values one place (the editor's settings, [tool.dsls], the command line) gives the settings
// of analysis/core/setting_table.h, and the one check per setting type, so a wrong value gets the
// same words wherever it is written.
#pragma once

#include "analysis/core/finding.h"
#include "analysis/core/setting_table.h"
#include "analysis/core/settings.h"

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace dsls::workspace {

// Rule selection: `select` replaces a lower place's list, `ignore` adds to it.
struct RuleSelection {
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> ignore;
};

struct SettingValues {
  analysis::Settings settings;  // versions, world size, launcher, torch.compile, rule levels, config globs
  RuleSelection selection;
  std::optional<analysis::Severity> outputSeverity;
  // Glob -> launcher, first match wins; matched against the path relative to the project root
  // (the folder of the pyproject.toml for [tool.dsls]).
  std::vector<std::pair<std::string, analysis::Launcher>> perFileLauncher;
};

// A value as a place gives it, before its check: a string, an integer, a boolean, a list of
// strings, or pairs of strings (rule code, level).
using RawSetting = std::variant<std::string, long long, bool, std::vector<std::string>,
                                std::vector<std::pair<std::string, std::string>>>;

struct SettingProblem {
  std::string subKey;   // ".overlap-comm-race" for one entry of rules; empty for the whole value
  std::string message;  // "must be a positive integer", "'0.14' ... is not a release number ..."
  // A wrong value that would silently change what is checked (a rule code, a version), as opposed
  // to one of the wrong shape.
  bool changesWhatIsChecked = false;
};

// What a value of `type` must be: "a release number such as 0.14.2", "true or false".
std::string settingTypeText(analysis::SettingType type);

// Checks `raw` against the row's type and stores it in `into` (`source` names where the versions
// came from, for messages); the problems otherwise. A list keeps its valid entries.
std::vector<SettingProblem> setSetting(const analysis::SettingRow& row, const RawSetting& raw, const std::string& source,
                                       SettingValues& into);

// "world-size must be a positive integer", "rules.x: 'x' is not a rule code ...": the problem under
// the name the place gives the setting.
std::string problemText(std::string_view name, const SettingProblem& problem);

// `top` over `under`, setting by setting: what `top` gives wins; its ignore list adds to `under`'s.
void overlaySettings(const SettingValues& top, SettingValues& under);

// "off" -> nullopt inside; nullopt outside when the word is not a level.
std::optional<std::optional<analysis::Severity>> parseRuleLevel(std::string_view word);

}  // namespace dsls::workspace

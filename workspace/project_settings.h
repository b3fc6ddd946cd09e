// Per-project settings from the [tool.dsls] table of the nearest pyproject.toml, merged
// under the caller's settings (command-line flags or editor settings win).
#pragma once

#include "analysis/core/finding.h"
#include "analysis/core/settings.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::workspace {

// What a [tool.dsls] table says. Keys: deepspeed-version, torch-version, world-size, launcher,
// select, ignore, rules = {code = "off"|"error"|"warning"|"information"|"hint"}, config-globs.
struct ProjectSettings {
  std::string file;  // the pyproject.toml it came from
  std::optional<std::string> deepspeedVersion, torchVersion, launcher;
  std::optional<long long> worldSize;
  std::optional<std::vector<std::string>> select;  // codes or globs ("log-*"); unset = every rule
  std::vector<std::string> ignore;
  std::map<std::string, std::optional<analysis::Severity>> rules;
  std::vector<std::string> configGlobs;
  std::vector<std::string> problems;  // TOML syntax errors, unknown keys, ill-typed values
};

// Parses pyproject.toml text; nullopt when it has no [tool.dsls] table. A file that is not
// valid TOML gives a ProjectSettings whose only content is the problem.
std::optional<ProjectSettings> parseProjectSettings(std::string_view pyprojectText, const std::string& fileName);

// The nearest pyproject.toml with a [tool.dsls] table in the directory of `path` or above it,
// not looking past a repository root (a directory holding .git). Re-read when the file changes.
std::optional<ProjectSettings> projectSettingsFor(const std::string& path);

// Rule selection given on top of the project's: `select` replaces the project's list, `ignore` adds to it.
struct RuleSelection {
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> ignore;
};

struct ResolvedSettings {
  analysis::Settings settings;
  std::optional<std::vector<std::string>> select;  // effective selection, for codes no registry lists
  std::vector<std::string> ignore;
  std::string projectFile;  // the pyproject.toml used, or empty
  std::vector<std::string> problems;
};

// `base` wins field by field; what it leaves empty comes from [tool.dsls], then (for the two
// versions) from pins or installs found by detectWorkspaceVersions between the file and its
// project root. With `useProjectFiles` false neither pyproject.toml nor pins are read.
ResolvedSettings resolveSettings(const std::string& path, const analysis::Settings& base, const RuleSelection& flags,
                                 bool useProjectFiles = true);

// The same, keeping only the settings: what the server calls for each document.
analysis::Settings settingsForFile(const std::string& path, const analysis::Settings& base);

// True when `code` equals one of `patterns` or matches it as a glob ("log-*").
bool codeMatches(std::string_view code, const std::vector<std::string>& patterns);
// True when a finding with `code` is reported under `select`/`ignore`.
bool codeSelected(std::string_view code, const std::optional<std::vector<std::string>>& select,
                  const std::vector<std::string>& ignore);

// Every code dsls can report: the ds_config rules, then "log-" + each log failure id.
std::vector<std::string> knownCodes();

// "off" -> nullopt inside; nullopt outside when the word is not a level.
std::optional<std::optional<analysis::Severity>> parseRuleLevel(std::string_view word);

}  // namespace dsls::workspace

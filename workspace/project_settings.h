// Per-project settings from the [tool.dsls] table of the nearest pyproject.toml, merged
// under the caller's settings (command-line flags or editor settings win).
#pragma once

#include "analysis/core/finding.h"
#include "analysis/core/settings.h"
#include "workspace/setting_values.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::workspace {

// What a [tool.dsls] table says: the keys of analysis/core/setting_table.h (projectKey).
struct ProjectSettings {
  std::string file;  // the pyproject.toml it came from
  SettingValues values;
  std::vector<std::string> problems;  // TOML syntax errors, unknown keys, values of the wrong type
  // Values that would silently change what is checked: unknown rule codes, malformed versions.
  std::vector<std::string> errors;
};

// Parses pyproject.toml text; nullopt when it has no [tool.dsls] table. A file that is not
// valid TOML gives a ProjectSettings whose only content is the problem.
std::optional<ProjectSettings> parseProjectSettings(std::string_view pyprojectText, const std::string& fileName);

// The nearest pyproject.toml with a [tool.dsls] table in the directory of `path` or above it,
// not looking past a repository root (a directory holding .git). Re-read when the file changes.
std::optional<ProjectSettings> projectSettingsFor(const std::string& path);

struct ResolvedSettings {
  analysis::Settings settings;
  std::optional<std::vector<std::string>> select;  // effective selection, for codes no registry lists
  std::vector<std::string> ignore;
  std::string projectFile;  // the pyproject.toml used, or empty
  std::optional<analysis::Severity> outputSeverity;  // [tool.dsls] output-severity
  std::vector<std::string> problems;
  std::vector<std::string> errors;  // the project's errors (ProjectSettings::errors)
};

// `given` (the command line's flags or the editor's settings) wins setting by setting; what it
// leaves unset comes from [tool.dsls], then (for the two versions) from the nearest pin or install
// (pinSearchFolders). A `select` in `given` replaces the project's and re-enables what the project
// switched off. With `useProjectFiles` false neither pyproject.toml nor pins are read.
ResolvedSettings resolveSettings(const std::string& path, const SettingValues& given, bool useProjectFiles = true,
                                 const std::vector<std::string>& workspaceRoots = {});

// The same, keeping only the settings: what the server calls for each document.
analysis::Settings settingsForFile(const std::string& path, const SettingValues& given,
                                   const std::vector<std::string>& workspaceRoots = {});

// Where pins are looked for, nearest first: the folder of `path` and each folder above it, up to
// and including a workspace root, a repository root (a folder holding .git) or the filesystem
// root, whichever comes first; then the workspace roots not passed on the way (for documents
// outside them). The command line and the server search the same way.
std::vector<std::string> pinSearchFolders(const std::string& path, const std::vector<std::string>& workspaceRoots);

// True when `code` equals one of `patterns` or matches it as a glob ("log-*").
bool codeMatches(std::string_view code, const std::vector<std::string>& patterns);
// True when a finding with `code` is reported under `select`/`ignore`.
bool codeSelected(std::string_view code, const std::optional<std::vector<std::string>>& select,
                  const std::vector<std::string>& ignore);

// Every code dsls can report: the ds_config rules, then "log-" + each log failure id.
std::vector<std::string> knownCodes();

}  // namespace dsls::workspace

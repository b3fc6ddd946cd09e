// Every dsls setting, declared once: its name in each place it can be written (the editor's
// settings, [tool.dsls] in pyproject.toml, a `dsls check` flag), its type, default and one-line
// doc. The readers of the three places, the value checks, `dsls check --help`, `dsls settings`
// and, through it, the editors' setting lists and the docs' tables all come from this table.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace dsls::analysis {

enum class SettingId {
  DeepSpeedVersion, TorchVersion, WorldSize, Launcher, PerFileLauncher, TorchCompile,
  Select, Ignore, Rules, ConfigGlobs, OutputSeverity,
};

// What a value must be; each type has one check (workspace/setting_values.h).
enum class SettingType {
  Version,          // a release number: "0.14.2"
  PositiveInteger,  // 8
  Boolean,          // true / false; on the command line --name and --no-name
  Launcher,         // one of launcherWord()'s words
  CodeList,         // rule codes or globs ("log-*"); on the command line CODE,... (repeatable)
  GlobList,         // file-name globs; on the command line one per flag (repeatable)
  RuleLevels,       // code = off|error|warning|information|hint; on the command line CODE=LEVEL
  GlobLaunchers,    // file glob = launcher word; on the command line GLOB=NAME
  Level,            // error|warning|information|hint
};

// Where a setting can be written. Every setting is in all three unless its row says why not.
enum SettingPlace : unsigned { kEditor = 1, kProject = 2, kCommandLine = 4, kEverywhere = 7 };

struct SettingRow {
  SettingId id;
  SettingType type;
  std::string_view editorKey;   // under "dsls" in the editor: dsls.deepspeedVersion
  std::string_view projectKey;  // in [tool.dsls]: deepspeed-version
  std::string_view flag;        // dsls check --deepspeed-version
  std::string_view valueName;   // in --help: V, N, NAME
  std::string_view defaultText; // what an unset setting means
  std::string_view doc;         // one line, for --help, the editors and the docs
  unsigned places = kEverywhere;
  std::string_view notEverywhere = {};  // why a setting is missing from a place
};

std::span<const SettingRow> settingTable();
const SettingRow& settingRow(SettingId id);

// The words a value of `type` may take ("hf", "accelerate", "deepspeed"); empty when free-form.
std::span<const std::string_view> settingChoices(SettingType type);
// The same as prose: "hf, accelerate or deepspeed".
std::string settingChoicesText(SettingType type);

// How a message tells the reader to set `id`, in the words of where it is read: the command line
// names its flag and [tool.dsls] ("--deepspeed-version or deepspeed-version in [tool.dsls]"), the
// editor its setting ("dsls.deepspeedVersion").
std::string settingName(SettingId id, bool commandLine);

}  // namespace dsls::analysis

#include "analysis/core/setting_table.h"

#include "analysis/core/settings.h"

#include <array>

namespace dsls::analysis {
namespace {

using S = SettingId;
using T = SettingType;

constexpr std::array kRows = {
    SettingRow{S::DeepSpeedVersion, T::Version, "deepspeedVersion", "deepspeed-version", "--deepspeed-version", "V",
               "read from the project's pins; unknown: version-dependent rules assume the worst case",
               "the DeepSpeed release the configs run with, e.g. 0.14.2"},
    SettingRow{S::TorchVersion, T::Version, "torchVersion", "torch-version", "--torch-version", "V",
               "read from the project's pins; unknown", "the PyTorch release the configs run with, e.g. 2.3.1"},
    SettingRow{S::WorldSize, T::PositiveInteger, "worldSize", "world-size", "--world-size", "N", "unknown",
               "the number of ranks (GPUs), for the batch-size arithmetic"},
    SettingRow{S::Launcher, T::Launcher, "launcher", "launcher", "--launcher", "NAME", "unknown",
               "what starts the run: hf (the Transformers Trainer), accelerate or deepspeed; decides what \"auto\" means"},
    SettingRow{S::PerFileLauncher, T::GlobLaunchers, "perFileLauncher", "per-file-launcher", "--per-file-launcher",
               "GLOB=NAME", "read from the project's launch scripts, YAML and Python",
               "the launcher per config file, by glob (configs/hf/*.json = hf); wins over launcher"},
    SettingRow{S::TorchCompile, T::Boolean, "torchCompile", "torch-compile", "--torch-compile", "", "unknown",
               "whether the model runs under torch.compile (some releases' rules depend on it)"},
    SettingRow{S::Select, T::CodeList, "select", "select", "--select", "CODE,...", "every rule",
               "report only these rule codes (globs such as 'log-*' work)"},
    SettingRow{S::Ignore, T::CodeList, "ignore", "ignore", "--ignore", "CODE,...", "none",
               "never report these rule codes (globs work)"},
    SettingRow{S::Rules, T::RuleLevels, "rules", "rules", "--rule", "CODE=LEVEL", "each rule's own severity",
               "a severity per rule code: off, error, warning, information or hint"},
    SettingRow{S::ConfigGlobs, T::GlobList, "configGlobs", "config-globs", "--config-glob", "GLOB", "none",
               "file-name globs of ds_config files, in addition to the built-in ones"},
    SettingRow{S::OutputSeverity, T::Level, "", "output-severity", "--min-severity", "LEVEL",
               "errors and warnings (the text format counts the rest)",
               "show only findings at this level or above: error, warning, information or hint",
               kProject | kCommandLine, "an editor shows every finding at its own level"},
};

constexpr std::array<std::string_view, 5> kRuleLevels = {"off", "error", "warning", "information", "hint"};
constexpr std::array<std::string_view, 2> kBooleans = {"true", "false"};

}  // namespace

std::span<const SettingRow> settingTable() { return kRows; }

const SettingRow& settingRow(SettingId id) {
  for (const SettingRow& row : kRows)
    if (row.id == id) return row;
  return kRows.front();  // unreachable: every id has a row (setting_table_test checks it)
}

std::span<const std::string_view> settingChoices(SettingType type) {
  switch (type) {
    case T::Launcher:
    case T::GlobLaunchers: return launcherWords();
    case T::RuleLevels: return kRuleLevels;
    case T::Level: return std::span(kRuleLevels).subspan(1);
    case T::Boolean: return kBooleans;
    default: return {};
  }
}

std::string settingChoicesText(SettingType type) {
  std::string out;
  const auto words = settingChoices(type);
  for (std::size_t i = 0; i < words.size(); ++i)
    out.append(i == 0 ? "" : i + 1 == words.size() ? " or " : ", ").append(words[i]);
  return out;
}

std::string settingName(SettingId id, bool commandLine) {
  const SettingRow& row = settingRow(id);
  if (!commandLine) return "dsls." + std::string(row.editorKey);
  return std::string(row.flag) + " or " + std::string(row.projectKey) + " in [tool.dsls]";
}

}  // namespace dsls::analysis

// `dsls settings`: the settings of analysis/core/setting_table.h, in every place they are written.
// Its JSON is what scripts/generate_settings.py turns into the editors' setting lists and the
// docs' tables.
#include "cli/commands.h"

#include "analysis/core/setting_table.h"
#include "analysis/facade/document_kind.h"
#include "workspace/setting_values.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace dsls::cli {
namespace {

using analysis::SettingType;

const char* typeWord(SettingType type) {
  switch (type) {
    case SettingType::Version: return "version";
    case SettingType::PositiveInteger: return "positive-integer";
    case SettingType::Boolean: return "boolean";
    case SettingType::Launcher: return "choice";
    case SettingType::CodeList: return "code-list";
    case SettingType::GlobList: return "glob-list";
    case SettingType::RuleLevels: return "rule-levels";
    case SettingType::Level: return "choice";
    case SettingType::GlobLaunchers: return "glob-launchers";
  }
  return "string";
}

nlohmann::ordered_json rowJson(const analysis::SettingRow& row) {
  nlohmann::ordered_json places = nlohmann::ordered_json::array();
  if (row.places & analysis::kEditor) places.push_back("editor");
  if (row.places & analysis::kProject) places.push_back("project");
  if (row.places & analysis::kCommandLine) places.push_back("commandLine");
  nlohmann::ordered_json choices = nlohmann::ordered_json::array();
  if (row.type != SettingType::Boolean)
    for (std::string_view c : analysis::settingChoices(row.type)) choices.push_back(c);
  return {{"editorKey", row.editorKey}, {"projectKey", row.projectKey}, {"flag", row.flag},
          {"valueName", row.valueName}, {"type", typeWord(row.type)},   {"mustBe", workspace::settingTypeText(row.type)},
          {"choices", choices},         {"default", row.defaultText},   {"doc", row.doc},
          {"places", places},           {"notEverywhere", row.notEverywhere}};
}

}  // namespace

int runSettings(const std::vector<std::string>& args) {
  bool json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::puts("usage: dsls settings [--format text|json]\n\nLists every setting with its name in the editor "
                "(dsls.NAME), in [tool.dsls] of pyproject.toml\nand as a `dsls check` flag, its values and default.");
      return 0;
    }
    std::string format;
    if (args[i] == "--format" && i + 1 < args.size()) format = args[++i];
    else if (args[i].starts_with("--format=")) format = args[i].substr(9);
    if (format != "text" && format != "json") {
      std::fprintf(stderr, "dsls settings: --format takes text or json (see dsls settings --help)\n");
      return 2;
    }
    json = format == "json";
  }
  if (json) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : analysis::settingTable()) rows.push_back(rowJson(row));
    nlohmann::ordered_json globs = nlohmann::ordered_json::array();
    for (const char* glob : analysis::builtinConfigGlobs()) globs.push_back(glob);
    std::cout << nlohmann::ordered_json{{"settings", rows}, {"builtinConfigGlobs", globs}}.dump(2) << "\n";
    return 0;
  }
  for (const auto& row : analysis::settingTable()) {
    std::string names;
    if (row.places & analysis::kEditor) names += "dsls." + std::string(row.editorKey) + "  ";
    if (row.places & analysis::kProject) names += "[tool.dsls] " + std::string(row.projectKey) + "  ";
    if (row.places & analysis::kCommandLine) names += std::string(row.flag);
    std::printf("%s\n    %s\n    must be %s; unset: %s\n", names.c_str(), std::string(row.doc).c_str(),
                workspace::settingTypeText(row.type).c_str(), std::string(row.defaultText).c_str());
    if (!row.notEverywhere.empty()) std::printf("    not everywhere: %s\n", std::string(row.notEverywhere).c_str());
  }
  return 0;
}

}  // namespace dsls::cli

#include "lsp/settings.h"

#include <optional>

namespace dsls::lsp {
namespace {

using workspace::RawSetting;

// The JSON value as the raw value setSetting checks; nothing when its shape is none a setting takes.
std::optional<RawSetting> rawValue(const protocol::Json& value) {
  if (value.is_string()) return RawSetting(value.get<std::string>());
  if (value.is_boolean()) return RawSetting(value.get<bool>());
  if (value.is_number_integer()) return RawSetting(value.get<long long>());
  if (value.is_array()) {
    std::vector<std::string> list;
    for (const auto& element : value) {
      if (!element.is_string()) return std::nullopt;
      list.push_back(element.get<std::string>());
    }
    return RawSetting(std::move(list));
  }
  if (value.is_object()) {
    std::vector<std::pair<std::string, std::string>> pairs;
    // A level of the wrong type is kept as "" so that its check names the entry.
    for (const auto& [key, level] : value.items())
      pairs.emplace_back(key, level.is_string() ? level.get<std::string>() : std::string());
    return RawSetting(std::move(pairs));
  }
  return std::nullopt;
}

}  // namespace

void mergeSettings(const protocol::Json& json, workspace::SettingValues& values, std::vector<std::string>& problems) {
  if (!json.is_object()) return;
  for (const analysis::SettingRow& row : analysis::settingTable()) {
    if (!(row.places & analysis::kEditor)) continue;
    auto it = json.find(std::string(row.editorKey));
    if (it == json.end() || it->is_null()) continue;
    // An empty string is how editors leave a text setting unset.
    if (it->is_string() && it->get<std::string>().empty()) continue;
    const std::string name = "dsls." + std::string(row.editorKey);
    auto raw = rawValue(*it);
    if (!raw) {
      problems.push_back(name + " must be " + workspace::settingTypeText(row.type) + "; the setting is ignored");
      continue;
    }
    for (const auto& problem : workspace::setSetting(row, *raw, "editor settings", values))
      problems.push_back(workspace::problemText(name, problem) +
                         (problem.subKey.empty() ? "; the setting is ignored" : "; the entry is ignored"));
  }
}

}  // namespace dsls::lsp

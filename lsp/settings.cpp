#include "lsp/settings.h"

#include "workspace/project_settings.h"
#include "workspace/setting_checks.h"

namespace dsls::lsp {

void mergeSettings(const protocol::Json& json, analysis::Settings& s, std::vector<std::string>& problems) {
  if (!json.is_object()) return;
  auto text = [&](const char* key, std::string& out, std::string* source) {
    auto it = json.find(key);
    if (it == json.end() || it->is_null()) return;
    if (!it->is_string()) {
      problems.push_back(std::string(key) + " must be a string");
      return;
    }
    out = it->get<std::string>();
    if (source) *source = "editor settings";
  };
  auto version = [&](const char* key, std::string& out, std::string& source) {
    std::string given;
    std::string givenSource;
    text(key, given, &givenSource);
    if (given.empty()) return;
    if (auto problem = workspace::versionProblem(given)) {
      // Left as it was: a wrong value must not hide the pin found in the workspace.
      problems.push_back(std::string("dsls.") + key + ": " + *problem + "; the setting is ignored");
      return;
    }
    out = given;
    source = givenSource;
  };
  version("deepspeedVersion", s.deepspeedVersion, s.deepspeedVersionSource);
  version("torchVersion", s.torchVersion, s.torchVersionSource);
  text("launcher", s.launcher, nullptr);
  if (auto it = json.find("worldSize"); it != json.end() && !it->is_null()) {
    if (it->is_number_integer() && it->get<long long>() > 0) s.worldSize = it->get<long long>();
    else problems.push_back("worldSize must be a positive integer");
  }
  if (auto it = json.find("torchCompile"); it != json.end() && !it->is_null()) {
    if (it->is_boolean()) s.torchCompile = it->get<bool>();
    else problems.push_back("torchCompile must be true or false");
  }
  if (auto it = json.find("rules"); it != json.end() && it->is_object()) {
    for (auto& [code, level] : it->items()) {
      auto parsed = level.is_string() ? workspace::parseRuleLevel(level.get<std::string>()) : std::nullopt;
      if (parsed) s.ruleOverrides[code] = *parsed;
      else problems.push_back("rules." + code + " must be off, error, warning, information or hint");
    }
  }
  if (auto it = json.find("configGlobs"); it != json.end() && it->is_array()) {
    s.configGlobs.clear();
    for (auto& g : *it)
      if (g.is_string()) s.configGlobs.push_back(g.get<std::string>());
  }
}

}  // namespace dsls::lsp

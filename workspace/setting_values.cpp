#include "workspace/setting_values.h"

#include "workspace/setting_checks.h"

#include <map>

namespace dsls::workspace {
namespace {

using analysis::SettingId;
using analysis::SettingType;

SettingProblem shapeProblem(SettingType type) { return {"", "must be " + settingTypeText(type), false}; }

// The string a value of a one-word type holds, or nothing when the raw value is of another shape.
const std::string* word(const RawSetting& raw) { return std::get_if<std::string>(&raw); }

std::vector<SettingProblem> setScalar(const analysis::SettingRow& row, const RawSetting& raw, const std::string& source,
                                      SettingValues& into) {
  analysis::Settings& s = into.settings;
  switch (row.type) {
    case SettingType::Version: {
      const std::string* v = word(raw);
      if (!v) return {shapeProblem(row.type)};
      if (auto bad = versionProblem(*v)) return {{"", *bad, true}};
      (row.id == SettingId::TorchVersion ? s.torchVersion : s.deepspeedVersion) = *v;
      (row.id == SettingId::TorchVersion ? s.torchVersionSource : s.deepspeedVersionSource) = source;
      return {};
    }
    case SettingType::PositiveInteger: {
      const long long* n = std::get_if<long long>(&raw);
      if (!n || *n <= 0) return {{"", "must be " + settingTypeText(row.type), true}};
      s.worldSize = *n;
      return {};
    }
    case SettingType::Boolean: {
      const bool* b = std::get_if<bool>(&raw);
      if (!b) return {shapeProblem(row.type)};
      s.torchCompile = *b;
      return {};
    }
    case SettingType::Launcher: {
      const std::string* v = word(raw);
      auto launcher = v ? analysis::parseLauncher(*v) : std::nullopt;
      if (!launcher) return {{"", (v ? "'" + *v + "' is not a launcher; it " : std::string()) + "must be " +
                                      settingTypeText(row.type), true}};
      s.launcher = *launcher;
      s.launcherSource = source;
      return {};
    }
    case SettingType::Level: {
      const std::string* v = word(raw);
      auto level = v ? parseRuleLevel(*v) : std::nullopt;
      if (!level || !*level) return {{"", "must be " + settingTypeText(row.type), true}};
      into.outputSeverity = **level;
      return {};
    }
    default: return {shapeProblem(row.type)};
  }
}

std::vector<SettingProblem> setList(const analysis::SettingRow& row, const RawSetting& raw, SettingValues& into) {
  std::vector<std::string> list;
  if (const std::string* one = word(raw)) list.push_back(*one);  // select = "log-*" is a one-element list
  else if (const auto* many = std::get_if<std::vector<std::string>>(&raw)) list = *many;
  else return {shapeProblem(row.type)};
  std::vector<SettingProblem> problems;
  for (const std::string& entry : list) {
    if (row.type == SettingType::GlobList && entry.empty()) problems.push_back({"", "needs non-empty globs", true});
    if (row.type == SettingType::CodeList)
      if (auto bad = ruleCodeProblem(entry)) problems.push_back({"", *bad, true});
  }
  if (row.id == SettingId::ConfigGlobs) {
    std::erase(list, std::string());
    into.settings.configGlobs = std::move(list);
  } else if (row.id == SettingId::Select) {
    into.selection.select = std::move(list);
  } else {
    into.selection.ignore.insert(into.selection.ignore.end(), list.begin(), list.end());
  }
  return problems;
}

std::vector<SettingProblem> setGlobLaunchers(const analysis::SettingRow& row, const RawSetting& raw,
                                            SettingValues& into) {
  const auto* pairs = std::get_if<std::vector<std::pair<std::string, std::string>>>(&raw);
  if (!pairs) return {shapeProblem(row.type)};
  std::vector<SettingProblem> problems;
  for (const auto& [glob, word] : *pairs) {
    auto launcher = analysis::parseLauncher(word);
    if (glob.empty()) problems.push_back({"", "needs non-empty globs", true});
    else if (!launcher)
      problems.push_back({std::string(".").append(glob),
                          std::string("'").append(word).append("' is not a launcher; it must be ").append(analysis::settingChoicesText(row.type)),
                          true});
    else into.perFileLauncher.emplace_back(glob, *launcher);
  }
  return problems;
}

std::vector<SettingProblem> setRuleLevels(const analysis::SettingRow& row, const RawSetting& raw, SettingValues& into) {
  const auto* pairs = std::get_if<std::vector<std::pair<std::string, std::string>>>(&raw);
  if (!pairs) return {shapeProblem(row.type)};
  std::vector<SettingProblem> problems;
  for (const auto& [code, levelWord] : *pairs) {
    auto level = parseRuleLevel(levelWord);
    // Appended, not "." + std::string: that trips GCC 12's -Wrestrict false positive (PR 105329).
    const std::string subKey = std::string(".").append(code);
    if (!level) problems.push_back({subKey, "must be " + analysis::settingChoicesText(SettingType::RuleLevels), false});
    else if (auto bad = ruleCodeProblem(code)) problems.push_back({subKey, *bad, true});
    else into.settings.ruleOverrides[code] = *level;
  }
  return problems;
}

}  // namespace

std::string settingTypeText(SettingType type) {
  switch (type) {
    case SettingType::Version: return "a release number such as 0.14.2";
    case SettingType::PositiveInteger: return "a positive integer";
    case SettingType::Boolean: return "true or false";
    case SettingType::Launcher:
    case SettingType::Level: return analysis::settingChoicesText(type);
    case SettingType::CodeList: return "a list of rule codes";
    case SettingType::GlobList: return "a list of strings";
    case SettingType::RuleLevels: return "a table of rule code = level";
    case SettingType::GlobLaunchers: return "a table of file glob = launcher";
  }
  return "a value";
}

std::vector<SettingProblem> setSetting(const analysis::SettingRow& row, const RawSetting& raw, const std::string& source,
                                       SettingValues& into) {
  switch (row.type) {
    case SettingType::CodeList:
    case SettingType::GlobList: return setList(row, raw, into);
    case SettingType::RuleLevels: return setRuleLevels(row, raw, into);
    case SettingType::GlobLaunchers: return setGlobLaunchers(row, raw, into);
    default: return setScalar(row, raw, source, into);
  }
}

void overlaySettings(const SettingValues& top, SettingValues& under) {
  const analysis::Settings& t = top.settings;
  analysis::Settings& u = under.settings;
  if (!t.deepspeedVersion.empty()) {
    u.deepspeedVersion = t.deepspeedVersion;
    u.deepspeedVersionSource = t.deepspeedVersionSource;
  }
  if (!t.torchVersion.empty()) {
    u.torchVersion = t.torchVersion;
    u.torchVersionSource = t.torchVersionSource;
  }
  if (t.worldSize) u.worldSize = t.worldSize;
  if (t.launcher != analysis::Launcher::Unknown) {
    u.launcher = t.launcher;
    u.launcherSource = t.launcherSource;
  }
  if (t.torchCompile) u.torchCompile = t.torchCompile;
  for (const auto& [code, level] : t.ruleOverrides) u.ruleOverrides[code] = level;
  if (!t.configGlobs.empty()) u.configGlobs = t.configGlobs;
  if (top.selection.select) under.selection.select = top.selection.select;
  under.selection.ignore.insert(under.selection.ignore.end(), top.selection.ignore.begin(), top.selection.ignore.end());
  if (top.outputSeverity) under.outputSeverity = top.outputSeverity;
  // The top's globs are tried first.
  under.perFileLauncher.insert(under.perFileLauncher.begin(), top.perFileLauncher.begin(), top.perFileLauncher.end());
}

std::string problemText(std::string_view name, const SettingProblem& problem) {
  std::string out(name);
  out.append(problem.subKey);
  const bool phrase = problem.message.starts_with("must ") || problem.message.starts_with("needs ");
  return out.append(phrase ? " " : ": ").append(problem.message);
}

std::optional<std::optional<analysis::Severity>> parseRuleLevel(std::string_view s) {
  using analysis::Severity;
  static const std::map<std::string_view, std::optional<Severity>> levels = {
      {"off", std::nullopt},           {"none", std::nullopt},
      {"ignore", std::nullopt},        {"error", Severity::Error},
      {"warning", Severity::Warning},  {"warn", Severity::Warning},
      {"information", Severity::Information}, {"info", Severity::Information},
      {"hint", Severity::Hint}};
  auto it = levels.find(s);
  if (it == levels.end()) return std::nullopt;
  return std::make_optional(it->second);
}

}  // namespace dsls::workspace

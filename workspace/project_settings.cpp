#include "workspace/project_settings.h"

#include "analysis/facade/rule_list.h"
#include "workspace/setting_checks.h"
#include "workspace/workspace_versions.h"

#include <toml++/toml.h>

#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <tuple>

namespace dsls::workspace {
namespace fs = std::filesystem;
namespace {

constexpr std::uintmax_t kMaxPyprojectBytes = 4u << 20;

std::optional<std::string> stringValue(const toml::node& node) {
  if (auto s = node.value<std::string>()) return *s;
  return std::nullopt;
}

// A string or an array of strings ("select = 'log-*'" is accepted as a one-element list).
std::optional<std::vector<std::string>> stringList(const toml::node& node) {
  std::vector<std::string> out;
  if (auto s = stringValue(node)) {
    out.push_back(*s);
    return out;
  }
  const toml::array* array = node.as_array();
  if (!array) return std::nullopt;
  for (const toml::node& element : *array) {
    auto s = stringValue(element);
    if (!s) return std::nullopt;
    out.push_back(*s);
  }
  return out;
}

void readTable(const toml::table& table, ProjectSettings& out) {
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    auto problem = [&](const std::string& what) { out.problems.push_back(out.file + ": [tool.dsls] " + name + " " + what); };
    auto error = [&](const std::string& what) { out.errors.push_back(out.file + ": [tool.dsls] " + name + ": " + what); };
    if (name == "deepspeed-version" || name == "torch-version" || name == "launcher") {
      auto value = stringValue(node);
      if (!value) {
        problem("must be a string");
        continue;
      }
      if (name != "launcher") {
        if (auto bad = versionProblem(*value)) {
          error(*bad);
          continue;
        }
      }
      (name == "launcher" ? out.launcher : name == "torch-version" ? out.torchVersion : out.deepspeedVersion) = *value;
    } else if (name == "world-size") {
      auto value = node.value<std::int64_t>();
      if (!value || *value <= 0 || !node.is_integer()) problem("must be a positive integer");
      else out.worldSize = *value;
    } else if (name == "select" || name == "ignore" || name == "config-globs") {
      auto list = stringList(node);
      if (!list) {
        problem("must be a list of strings");
        continue;
      }
      if (name != "config-globs")
        for (const std::string& code : *list)
          if (auto bad = ruleCodeProblem(code)) error(*bad);
      if (name == "select") out.select = std::move(*list);
      else if (name == "ignore") out.ignore = std::move(*list);
      else out.configGlobs = std::move(*list);
    } else if (name == "rules") {
      const toml::table* rules = node.as_table();
      if (!rules) {
        problem("must be a table of rule code = level");
        continue;
      }
      for (const auto& [code, level] : *rules) {
        auto word = stringValue(level);
        auto parsed = word ? parseRuleLevel(*word) : std::nullopt;
        // Appended, not "." + std::string: that trips GCC 12's -Wrestrict false positive (PR 105329).
        if (!parsed)
          problem(std::string(".").append(code.str()).append(" must be off, error, warning, information or hint"));
        else if (auto bad = ruleCodeProblem(code.str())) error(*bad);
        else out.rules[std::string(code.str())] = *parsed;
      }
    } else if (name == "output-severity") {
      auto word = stringValue(node);
      auto level = word ? parseRuleLevel(*word) : std::nullopt;
      if (!level || !*level) problem("must be error, warning, information or hint");
      else out.outputSeverity = **level;
    } else {
      problem("is not a dsls setting");
    }
  }
}

std::optional<std::string> readFile(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec) || fs::file_size(p, ec) > kMaxPyprojectBytes || ec) return std::nullopt;
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Parsed pyproject.toml files, keyed by path and re-read when size or modification time change.
struct CacheEntry {
  std::int64_t mtimeNs = 0;
  std::int64_t size = -1;
  std::optional<ProjectSettings> settings;
};

std::optional<std::tuple<std::int64_t, std::int64_t>> fileStamp(const fs::path& p) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return std::make_tuple(static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
                         static_cast<std::int64_t>(st.st_size));
}

std::optional<ProjectSettings> cachedProjectSettings(const fs::path& pyproject) {
  static std::mutex mutex;
  static std::map<std::string, CacheEntry> cache;
  auto stamp = fileStamp(pyproject);
  if (!stamp) return std::nullopt;
  std::lock_guard lock(mutex);
  CacheEntry& entry = cache[pyproject.string()];
  if (entry.mtimeNs != std::get<0>(*stamp) || entry.size != std::get<1>(*stamp)) {
    entry.mtimeNs = std::get<0>(*stamp);
    entry.size = std::get<1>(*stamp);
    auto text = readFile(pyproject);
    entry.settings = text ? parseProjectSettings(*text, pyproject.string()) : std::nullopt;
  }
  return entry.settings;
}

fs::path startDirectory(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = fs::path(path);
  if (!fs::is_directory(p, ec)) p = p.parent_path();
  return p.lexically_normal();
}

bool isRepositoryRoot(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / ".git", ec);
}

}  // namespace

std::vector<std::string> pinSearchFolders(const std::string& path, const std::vector<std::string>& workspaceRoots) {
  std::vector<fs::path> roots;
  for (const auto& r : workspaceRoots) roots.push_back(startDirectory(r));
  std::vector<std::string> chain;
  fs::path dir = startDirectory(path);
  for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
    chain.push_back(dir.string());
    bool workspaceRoot = std::find(roots.begin(), roots.end(), dir) != roots.end();
    if (workspaceRoot || isRepositoryRoot(dir) || dir == dir.root_path() || dir.parent_path() == dir) break;
    dir = dir.parent_path();
  }
  for (const auto& r : roots)
    if (std::find(chain.begin(), chain.end(), r.string()) == chain.end()) chain.push_back(r.string());
  return chain;
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

std::optional<ProjectSettings> parseProjectSettings(std::string_view text, const std::string& fileName) {
  ProjectSettings out;
  out.file = fileName;
  toml::table root;
  try {
    root = toml::parse(text, fileName);
  } catch (const toml::parse_error& e) {
    // Only worth reporting when the broken file would have configured dsls.
    if (text.find("tool.dsls") == std::string_view::npos) return std::nullopt;
    const auto& where = e.source().begin;
    out.problems.push_back(fileName + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) +
                           ": not valid TOML (" + std::string(e.description()) + "); its [tool.dsls] settings are ignored");
    return out;
  }
  const toml::table* dsls = root["tool"]["dsls"].as_table();
  if (!dsls) return std::nullopt;
  readTable(*dsls, out);
  return out;
}

std::optional<ProjectSettings> projectSettingsFor(const std::string& path) {
  fs::path dir = startDirectory(path);
  for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
    if (auto found = cachedProjectSettings(dir / "pyproject.toml")) return found;
    if (isRepositoryRoot(dir) || dir.parent_path() == dir) break;
    dir = dir.parent_path();
  }
  return std::nullopt;
}

bool codeMatches(std::string_view code, const std::vector<std::string>& patterns) {
  std::string c(code);
  for (const std::string& p : patterns)
    if (p == c || (p.find_first_of("*?[") != std::string::npos && fnmatch(p.c_str(), c.c_str(), 0) == 0)) return true;
  return false;
}

bool codeSelected(std::string_view code, const std::optional<std::vector<std::string>>& select,
                  const std::vector<std::string>& ignore) {
  if (select && !codeMatches(code, *select)) return false;
  return !codeMatches(code, ignore);
}

std::vector<std::string> knownCodes() {
  std::vector<std::string> codes;
  for (const auto& rule : analysis::ruleList()) codes.push_back(rule.code);
  return codes;
}

ResolvedSettings resolveSettings(const std::string& path, const analysis::Settings& base, const RuleSelection& flags,
                                 bool useProjectFiles, const std::vector<std::string>& workspaceRoots) {
  ResolvedSettings out;
  analysis::Settings& s = out.settings;
  s = base;
  std::optional<ProjectSettings> project = useProjectFiles ? projectSettingsFor(path) : std::nullopt;
  if (project) {
    out.projectFile = project->file;
    out.problems = project->problems;
    out.errors = project->errors;
    out.outputSeverity = project->outputSeverity;
    const std::string source = "pyproject.toml [tool.dsls]";
    if (s.deepspeedVersion.empty() && project->deepspeedVersion) {
      s.deepspeedVersion = *project->deepspeedVersion;
      s.deepspeedVersionSource = source;
    }
    if (s.torchVersion.empty() && project->torchVersion) {
      s.torchVersion = *project->torchVersion;
      s.torchVersionSource = source;
    }
    if (s.launcher.empty() && project->launcher) s.launcher = *project->launcher;
    if (!s.worldSize && project->worldSize) s.worldSize = project->worldSize;
    if (s.configGlobs.empty()) s.configGlobs = project->configGlobs;
  }
  if (useProjectFiles && (s.deepspeedVersion.empty() || s.torchVersion.empty()))
    detectWorkspaceVersions(pinSearchFolders(path, workspaceRoots), s);

  // A --select replaces the project's selection and re-enables what the project switched off.
  out.select = flags.select ? flags.select : project ? project->select : std::nullopt;
  if (project && !flags.select) out.ignore = project->ignore;
  out.ignore.insert(out.ignore.end(), flags.ignore.begin(), flags.ignore.end());

  // Fold everything into per-rule overrides for the registered codes; the caller's own overrides win.
  std::map<std::string, std::optional<analysis::Severity>> overrides;
  if (project)
    for (const auto& [code, level] : project->rules)
      if (level || !flags.select || !codeMatches(code, *flags.select)) overrides[code] = level;
  for (const std::string& code : knownCodes())
    if (!codeSelected(code, out.select, out.ignore)) overrides[code] = std::nullopt;
  for (const auto& [code, level] : base.ruleOverrides) overrides[code] = level;
  s.ruleOverrides = std::move(overrides);
  return out;
}

analysis::Settings settingsForFile(const std::string& path, const analysis::Settings& base,
                                   const std::vector<std::string>& workspaceRoots) {
  return resolveSettings(path, base, RuleSelection{}, true, workspaceRoots).settings;
}

}  // namespace dsls::workspace

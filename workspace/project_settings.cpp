#include "workspace/project_settings.h"

#include "analysis/facade/rule_list.h"
#include "workspace/launcher_inference.h"
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

// The node as the raw value setSetting checks; nothing when its shape is none a setting takes.
std::optional<RawSetting> rawValue(const toml::node& node) {
  if (auto text = node.value_exact<std::string>()) return RawSetting(*text);
  if (auto boolean = node.value_exact<bool>()) return RawSetting(*boolean);
  if (auto integer = node.value_exact<std::int64_t>()) return RawSetting(static_cast<long long>(*integer));
  if (const toml::array* array = node.as_array()) {
    std::vector<std::string> list;
    for (const toml::node& element : *array) {
      auto text = element.value_exact<std::string>();
      if (!text) return std::nullopt;
      list.push_back(*text);
    }
    return RawSetting(std::move(list));
  }
  if (const toml::table* table = node.as_table()) {
    std::vector<std::pair<std::string, std::string>> pairs;
    // A level of the wrong type is kept as "" so that its check names the entry.
    for (const auto& [key, value] : *table) pairs.emplace_back(std::string(key.str()), value.value_or(std::string()));
    return RawSetting(std::move(pairs));
  }
  return std::nullopt;
}

const analysis::SettingRow* projectRow(std::string_view key) {
  for (const analysis::SettingRow& row : analysis::settingTable())
    if ((row.places & analysis::kProject) && row.projectKey == key) return &row;
  return nullptr;
}

void readTable(const toml::table& table, ProjectSettings& out) {
  const std::string source = "pyproject.toml [tool.dsls]";
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    const std::string where = out.file + ": [tool.dsls] ";
    const analysis::SettingRow* row = projectRow(name);
    if (!row) {
      out.problems.push_back(where + name + " is not a dsls setting");
      continue;
    }
    auto raw = rawValue(node);
    if (!raw) {
      out.problems.push_back(where + name + " must be " + settingTypeText(row->type));
      continue;
    }
    for (const SettingProblem& problem : setSetting(*row, *raw, source, out.values))
      (problem.changesWhatIsChecked ? out.errors : out.problems).push_back(where + problemText(name, problem));
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

// The first glob of `globs` that matches `path` relative to `base` (a glob without '/' matches the
// file name), and its launcher.
std::optional<analysis::Launcher> perFileLauncher(const std::vector<std::pair<std::string, analysis::Launcher>>& globs,
                                                  const fs::path& path, const fs::path& base) {
  std::error_code ec;
  const std::string relative = fs::relative(path, base, ec).generic_string();
  const std::string name = path.filename().string();
  for (const auto& [glob, launcher] : globs) {
    const std::string& subject = glob.find('/') == std::string::npos ? name : relative;
    if (!ec && fnmatch(glob.c_str(), subject.c_str(), 0) == 0) return launcher;
  }
  return std::nullopt;
}

// The folder the project's relative paths start from: the nearest one that is a workspace root
// or holds .git, pyproject.toml or setup.py; nothing for a file in none (its scripts are not
// looked for).
std::optional<fs::path> projectRootOf(const std::string& path, const std::vector<std::string>& workspaceRoots) {
  std::vector<fs::path> roots;
  for (const auto& root : workspaceRoots) roots.push_back(startDirectory(root));
  for (fs::path dir = startDirectory(path); !dir.empty(); dir = dir.parent_path()) {
    std::error_code ec;
    if (std::find(roots.begin(), roots.end(), dir) != roots.end() || isRepositoryRoot(dir) ||
        fs::exists(dir / "pyproject.toml", ec) || fs::exists(dir / "setup.py", ec))
      return dir;
    if (dir.parent_path() == dir) break;
  }
  return std::nullopt;
}

// The launcher of one file: a per-file glob, then the launcher, of the caller's settings, then of
// [tool.dsls], then what the project's launch scripts show.
void resolveLauncher(const std::string& path, const SettingValues& given, const std::optional<ProjectSettings>& project,
                     const std::vector<std::string>& workspaceRoots, bool useProjectFiles, analysis::Settings& s) {
  if (path.empty()) return;  // text that is no file: only the settings name its launcher
  std::error_code ec;
  const fs::path file = fs::absolute(fs::path(path), ec).lexically_normal();
  if (ec) return;
  const std::optional<fs::path> root = projectRootOf(path, workspaceRoots);
  if (auto l = perFileLauncher(given.perFileLauncher, file, root.value_or(file.parent_path()))) {
    const auto& row = analysis::settingRow(analysis::SettingId::PerFileLauncher);
    s.launcher = *l;
    s.launcherSource = given.settings.commandLine ? std::string(row.flag) : "dsls." + std::string(row.editorKey);
    return;
  }
  if (given.settings.launcher != analysis::Launcher::Unknown) return;
  if (project) {
    if (auto l = perFileLauncher(project->values.perFileLauncher, file, fs::path(project->file).parent_path())) {
      s.launcher = *l;
      s.launcherSource = "per-file-launcher in " + project->file;
      return;
    }
  }
  if (s.launcher != analysis::Launcher::Unknown || !useProjectFiles || !root) return;
  if (auto inferred = inferLauncher(file.string(), root->string())) {
    s.launcher = inferred->launcher;
    s.launcherSource = inferred->evidence;
    s.launchBf16 = inferred->bf16;
  }
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

ResolvedSettings resolveSettings(const std::string& path, const SettingValues& given, bool useProjectFiles,
                                 const std::vector<std::string>& workspaceRoots) {
  ResolvedSettings out;
  std::optional<ProjectSettings> project = useProjectFiles ? projectSettingsFor(path) : std::nullopt;
  SettingValues merged;
  if (project) {
    out.projectFile = project->file;
    out.problems = project->problems;
    out.errors = project->errors;
    merged = project->values;
    // A select given on top re-enables the rules it names that the project switched off.
    if (given.selection.select)
      std::erase_if(merged.settings.ruleOverrides, [&](const auto& entry) {
        return !entry.second && codeMatches(entry.first, *given.selection.select);
      });
    if (given.selection.select) merged.selection.ignore.clear();
  }
  overlaySettings(given, merged);
  merged.settings.commandLine = given.settings.commandLine;
  analysis::Settings& s = out.settings;
  s = merged.settings;
  resolveLauncher(path, given, project, workspaceRoots, useProjectFiles, s);
  if (useProjectFiles && (s.deepspeedVersion.empty() || s.torchVersion.empty()))
    for (auto& conflict : detectWorkspaceVersions(pinSearchFolders(path, workspaceRoots), s))
      out.problems.push_back(std::move(conflict));
  out.select = merged.selection.select;
  out.ignore = merged.selection.ignore;
  out.outputSeverity = merged.outputSeverity;

  // Fold the selection into per-rule overrides for the registered codes; levels given on top win.
  for (const std::string& code : knownCodes())
    if (!codeSelected(code, out.select, out.ignore)) s.ruleOverrides[code] = std::nullopt;
  for (const auto& [code, level] : given.settings.ruleOverrides) s.ruleOverrides[code] = level;
  return out;
}

analysis::Settings settingsForFile(const std::string& path, const SettingValues& given,
                                   const std::vector<std::string>& workspaceRoots) {
  return resolveSettings(path, given, true, workspaceRoots).settings;
}

}  // namespace dsls::workspace

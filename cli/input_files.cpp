#include "cli/input_files.h"

#include "cli/gitignore.h"
#include "cli/path_glob.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace dsls::cli {
namespace fs = std::filesystem;
namespace {

bool excluded(const std::vector<std::string>& exclude, const std::string& path) {
  return !exclude.empty() && pathMatchesAny(exclude, path);
}

bool couldBeInput(const fs::path& p) {
  static const std::set<std::string> extensions = {".json", ".jsonc", ".log", ".txt"};
  return extensions.count(p.extension().string()) > 0;
}

void walk(const std::string& root, const std::vector<std::string>& include, const std::vector<std::string>& exclude,
          bool respectGitignore, InputList& out) {
  std::vector<std::string> found;
  std::error_code ec;
  auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    out.errors.push_back(root + ": " + ec.message());
    return;
  }
  GitignoreStack gitignore(root);
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) {
      out.errors.push_back(root + ": " + ec.message());
      return;
    }
    const fs::directory_entry& entry = *it;
    const std::string name = entry.path().filename().string();
    const std::string path = displayPath(entry.path().generic_string());
    std::error_code typeError;
    if (entry.is_directory(typeError)) {
      if (entry.is_symlink(typeError) || isSkippedFolder(name) || excluded(exclude, path) ||
          (respectGitignore && gitignore.ignored(entry.path(), true)))
        it.disable_recursion_pending();
      continue;
    }
    if (!entry.is_regular_file(typeError)) continue;
    if (excluded(exclude, path)) continue;
    if (respectGitignore && gitignore.ignored(entry.path(), false)) {
      if (couldBeInput(entry.path())) ++out.gitignored;
      continue;
    }
    if (!include.empty() && !pathMatchesAny(include, path)) continue;
    found.push_back(path);
  }
  std::sort(found.begin(), found.end());
  for (auto& f : found) out.files.push_back({std::move(f), false, false});
}

}  // namespace

bool isSkippedFolder(const std::string& name) {
  static const std::set<std::string> skipped = {".git", ".hg", ".svn", "node_modules", "build", "_build", "dist",
                                                "__pycache__", ".venv", "venv", ".tox", ".nox", ".mypy_cache",
                                                ".pytest_cache", ".ruff_cache", "site-packages"};
  return skipped.count(name) || name.starts_with("build-") || name.starts_with("cmake-build-");
}

std::string displayPath(const std::string& path) {
  if (path.empty() || path == "-") return path;
  std::string p = fs::path(path).lexically_normal().generic_string();
  while (p.size() > 1 && p.ends_with("/")) p.pop_back();
  // Not p = ".": GCC 12 reports a false -Wrestrict (PR 105329) for that assignment.
  if (p.empty()) return ".";
  return p;
}

InputList collectInputs(const std::vector<std::string>& paths, const std::vector<std::string>& include,
                        const std::vector<std::string>& exclude, bool respectGitignore) {
  InputList out;
  for (const std::string& given : paths) {
    if (given == "-") {
      out.files.push_back({"-", true, true});
      continue;
    }
    std::error_code ec;
    fs::file_status status = fs::status(given, ec);
    if (ec || !fs::exists(status)) {
      out.errors.push_back(given + ": " + (ec ? ec.message() : std::string("no such file or folder")));
      continue;
    }
    if (fs::is_directory(status)) {
      walk(given, include, exclude, respectGitignore, out);
      continue;
    }
    std::string path = displayPath(given);
    if (excluded(exclude, path)) continue;
    out.files.push_back({path, true, false});
  }
  // One report per file, even when it is reached twice (a folder and a file inside it).
  std::set<std::string> seen;
  std::vector<InputFile> unique;
  for (auto& f : out.files) {
    std::error_code ec;
    std::string key = f.isStdin ? "-" : fs::weakly_canonical(f.path, ec).string();
    if (ec) key = f.path;
    if (seen.insert(key).second) unique.push_back(std::move(f));
  }
  out.files = std::move(unique);
  return out;
}

}  // namespace dsls::cli

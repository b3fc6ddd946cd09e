#include "cli/gitignore.h"

#include "cli/path_glob.h"

#include <fstream>
#include <sstream>

namespace dsls::cli {
namespace fs = std::filesystem;
namespace {

std::string trimTrailingSpaces(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  while (!line.empty() && line.back() == ' ' && !(line.size() >= 2 && line[line.size() - 2] == '\\')) line.pop_back();
  return line;
}

// The repository root above `folder` (the nearest folder holding .git), else `folder` itself.
fs::path topFolder(const fs::path& folder) {
  std::error_code ec;
  for (fs::path p = folder; !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / ".git", ec)) return p;
    if (p == p.parent_path()) break;
  }
  return folder;
}

bool lineMatches(const IgnoreLine& line, const std::string& relative, bool isFolder) {
  if (line.foldersOnly && !isFolder) return false;
  if (line.anchored) return globMatch(line.pattern, relative);
  auto slash = relative.find_last_of('/');
  return globMatch(line.pattern, slash == std::string::npos ? relative : relative.substr(slash + 1));
}

}  // namespace

std::vector<IgnoreLine> parseGitignore(const std::string& text) {
  std::vector<IgnoreLine> lines;
  std::istringstream in(text);
  std::string raw;
  while (std::getline(in, raw)) {
    std::string line = trimTrailingSpaces(raw);
    if (line.empty() || line.front() == '#') continue;
    IgnoreLine out;
    if (line.front() == '!') {
      out.negated = true;
      line.erase(0, 1);
    } else if (line.starts_with("\\#") || line.starts_with("\\!")) {
      line.erase(0, 1);
    }
    if (line.ends_with("/")) {
      out.foldersOnly = true;
      line.pop_back();
    }
    if (line.starts_with("**/")) line.erase(0, 3);  // any depth: the same as a bare name
    else if (line.find('/') != std::string::npos) out.anchored = true;
    if (line.starts_with("/")) line.erase(0, 1);
    if (line.empty()) continue;
    out.pattern = std::move(line);
    lines.push_back(std::move(out));
  }
  return lines;
}

GitignoreStack::GitignoreStack(const fs::path& walkRoot) {
  std::error_code ec;
  fs::path root = fs::absolute(walkRoot, ec).lexically_normal();
  if (!root.has_filename()) root = root.parent_path();
  top_ = topFolder(root);
  tracked_ = TrackedFiles::load(top_);
}

const std::vector<IgnoreLine>& GitignoreStack::linesOf(const fs::path& folder) {
  auto it = cache_.find(folder);
  if (it != cache_.end()) return it->second;
  std::vector<IgnoreLine> lines;
  std::ifstream in(folder / ".gitignore", std::ios::binary);
  if (in) {
    std::ostringstream text;
    text << in.rdbuf();
    lines = parseGitignore(text.str());
  }
  return cache_.emplace(folder, std::move(lines)).first->second;
}

bool GitignoreStack::ignored(const fs::path& path, bool isFolder) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec).lexically_normal();
  fs::path below = absolute.lexically_relative(top_);
  if (below.empty() || *below.begin() == "..") return false;
  if (!tracked_) return matched(below, isFolder);
  const std::string relative = below.generic_string();
  // A tracked file is never ignored, and a folder holding one is walked; its untracked files are
  // ignored when the folder itself is.
  if (isFolder ? tracked_->holdsTracked(relative) : tracked_->tracked(relative)) return false;
  if (!isFolder) {
    fs::path folder;
    for (auto part = below.begin(); std::next(part) != below.end(); ++part)
      if (matched(folder /= *part, true)) return true;
  }
  return matched(below, isFolder);
}

bool GitignoreStack::matched(const fs::path& below, bool isFolder) {
  // Folders from the top down to the path's own folder; deeper files decide later, so win.
  bool result = false;
  fs::path folder = top_;
  std::vector<fs::path> parts(below.begin(), below.end());
  for (std::size_t depth = 0; depth < parts.size(); ++depth) {
    fs::path rest;
    for (std::size_t i = depth; i < parts.size(); ++i) rest /= parts[i];
    const std::string relative = rest.generic_string();
    for (const IgnoreLine& line : linesOf(folder))
      if (lineMatches(line, relative, isFolder)) result = !line.negated;
    folder /= parts[depth];
  }
  return result;
}

}  // namespace dsls::cli

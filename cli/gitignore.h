// A reader of .gitignore files, for `dsls check` walking a folder. It supports the common forms
// (docs/cli.md): blank lines and "#" comments, "!" to re-include, a trailing "/" for folders only,
// a leading or inner "/" to anchor a pattern to the folder of its .gitignore, "*", "?", "[...]"
// and "**". Each folder's .gitignore applies below it and the last matching line wins; as in git,
// no pattern applies to a file the repository tracks (its index says which). Not read:
// .git/info/exclude, core.excludesFile, and the rule that a file inside an excluded folder
// cannot be re-included (the folder is never entered, so it holds here as well).
#pragma once

#include "cli/git_index.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dsls::cli {

struct IgnoreLine {
  std::string pattern;  // without "!", the trailing "/" and a leading "/"
  bool negated = false;
  bool foldersOnly = false;
  bool anchored = false;  // matched against the path below the .gitignore's folder, not a name
};

// The lines of one .gitignore text.
std::vector<IgnoreLine> parseGitignore(const std::string& text);

// The .gitignore files of the folders from a walk's root (or the repository root above it,
// the nearest folder holding .git) down to each path asked about, read once per folder.
class GitignoreStack {
 public:
  explicit GitignoreStack(const std::filesystem::path& walkRoot);

  bool ignored(const std::filesystem::path& path, bool isFolder);

 private:
  const std::vector<IgnoreLine>& linesOf(const std::filesystem::path& folder);
  // Whether the lines say `below` (relative to top_) is ignored, tracked or not.
  bool matched(const std::filesystem::path& below, bool isFolder);

  std::filesystem::path top_;  // the highest folder whose .gitignore counts
  std::optional<TrackedFiles> tracked_;  // the files of the repository at top_, when it is one
  std::map<std::filesystem::path, std::vector<IgnoreLine>> cache_;
};

}  // namespace dsls::cli

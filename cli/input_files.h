// Expands the paths given to `dsls check` into the files to look at: folders are walked
// (without following folder symlinks, skipping VCS, dependency and build folders and what the
// .gitignore files say) and
// --include / --exclude globs filter what is found.
#pragma once

#include <string>
#include <vector>

namespace dsls::cli {

struct InputFile {
  std::string path;       // as shown in reports: relative to the current folder when given relative
  bool named = false;     // given on the command line itself rather than found in a folder
  bool isStdin = false;
};

struct InputList {
  std::vector<InputFile> files;
  std::vector<std::string> errors;  // paths that do not exist or folders that cannot be read
  // Files a config or log could be (.json, .jsonc, .log, .txt) that .gitignore excluded; tracked
  // files never are.
  std::size_t gitignored = 0;
};

// "-" stands for standard input. Files found in folders are sorted; duplicates are dropped.
InputList collectInputs(const std::vector<std::string>& paths, const std::vector<std::string>& include,
                        const std::vector<std::string>& exclude, bool respectGitignore = true);

// A folder name `dsls check` never descends into (".git", "node_modules", "build", ...).
bool isSkippedFolder(const std::string& name);

// "./a//b" -> "a/b"; keeps absolute paths absolute.
std::string displayPath(const std::string& path);

}  // namespace dsls::cli

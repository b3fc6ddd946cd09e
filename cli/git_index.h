// The files a git repository tracks, read from its index (.git/index, versions 2 to 4) without
// running git. Ignore patterns never apply to a tracked file, as in git itself.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace dsls::cli {

class TrackedFiles {
 public:
  // The index of the repository whose work tree is `root` (a folder holding .git, a folder or a
  // "gitdir:" file); nothing when there is none or it cannot be read.
  static std::optional<TrackedFiles> load(const std::filesystem::path& root);
  // From the bytes of an index file; nothing when they are not one.
  static std::optional<TrackedFiles> parse(std::string_view index);

  // `relative` is a path below the work tree root, with '/' separators.
  bool tracked(const std::string& relative) const { return files_.count(relative) > 0; }
  // Whether a tracked file lies below the folder `relative`.
  bool holdsTracked(const std::string& relative) const;
  std::size_t size() const { return files_.size(); }

 private:
  std::set<std::string> files_;
};

}  // namespace dsls::cli

// A DeepSpeed or PyTorch release number, as written in version strings, in the catalog and in logs.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace dsls::analysis {

// major.minor.patch. Parsing accepts the spellings seen in pip freezes and logs:
// "0.14.2", "v0.19.3", "0.14.2+cu118", "0.15.0rc1", "0.16.0.dev0", "2.3", "2.3.1".
// Pre-release and local suffixes are dropped, so "0.15.0rc1" compares equal to
// "0.15.0": a release candidate already carries the features of its release.
struct Version {
  int major = 0, minor = 0, patch = 0;

  static std::optional<Version> parse(std::string_view text);
  auto operator<=>(const Version&) const = default;
  std::string str() const;
};

}  // namespace dsls::analysis

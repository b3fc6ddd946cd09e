// What a project's declarations of one package add up to: one release, a range of the known
// releases, or a conflict that is reported and resolves to nothing.
#pragma once

#include "workspace/declared_versions.h"

namespace dsls::workspace {

struct VersionChoice {
  std::string exact;                  // "0.14.2" when the declarations pin one release
  std::string range;                  // the combined specifier otherwise: ">=0.18.6,<0.19.0"
  std::vector<std::string> releases;  // deepspeed: the known releases the range admits
  std::string source;                 // the file of the first declaration that says something
  std::string where;                  // every such declaration: "pyproject.toml:8, requirements.txt:2"
  std::vector<std::string> problems;  // conflicts and unreadable specifiers, one line each
  bool found() const { return !exact.empty() || !range.empty(); }
};

// Combines the declarations of `package` in one project. Two different exact pins, a pin another
// declaration excludes, or a range no known release satisfies is a conflict: a problem line, and
// neither an exact version nor a range.
VersionChoice combineDeclarations(const std::vector<Declaration>& declarations, std::string_view package);

}  // namespace dsls::workspace

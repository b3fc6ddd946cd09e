// Finds the DeepSpeed and PyTorch versions a workspace pins or has installed (read-only).
#pragma once

#include "analysis/core/settings.h"

#include <functional>
#include <string>
#include <vector>

namespace dsls::workspace {

// Fills settings.deepspeedVersion / torchVersion when they are empty. Roots are searched nearest
// first; in each, every declaration of the package (workspace/declared_versions.h: requirements
// files with their -r/-c includes, pyproject.toml, setup.cfg, setup.py, environment.yml, uv.lock,
// poetry.lock) is read and combined (workspace/version_declarations.h): one release sets the
// version, a range sets deepspeedRange and deepspeedReleases. A root that declares nothing
// may have an installed deepspeed-*.dist-info / torch-*.dist-info in a virtualenv. Each version
// found is described to `note` ("deepspeed 0.14.2 pinned in /repo/requirements.txt"), if given.
// Returns the conflicts (two declarations no release satisfies), which set nothing.
using VersionNote = std::function<void(const std::string& line)>;
std::vector<std::string> detectWorkspaceVersions(const std::vector<std::string>& roots, analysis::Settings& settings,
                                                 const VersionNote& note = {});

// Glob patterns (LSP file watchers) of every file detectWorkspaceVersions reads, and of the
// pyproject.toml files whose [tool.dsls] section applies to documents.
std::vector<std::string> workspaceVersionFileGlobs();

}  // namespace dsls::workspace

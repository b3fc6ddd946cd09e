// Finds the DeepSpeed and PyTorch versions a workspace pins or has installed (read-only).
#pragma once

#include "analysis/core/settings.h"

#include <functional>
#include <string>
#include <vector>

namespace dsls::workspace {

// Fills settings.deepspeedVersion / torchVersion when they are empty, from the first of:
// requirements*.txt, pyproject.toml, setup.cfg, environment.yml in a root, then an installed
// deepspeed-*.dist-info / torch-*.dist-info in a virtualenv under the root. Each version found is
// described to `note` ("deepspeed 0.14.2 pinned in /repo/requirements.txt"), if given.
using VersionNote = std::function<void(const std::string& line)>;
void detectWorkspaceVersions(const std::vector<std::string>& roots, analysis::Settings& settings,
                             const VersionNote& note = {});

// Glob patterns (LSP file watchers) of every file detectWorkspaceVersions reads, and of the
// pyproject.toml files whose [tool.dsls] section applies to documents.
std::vector<std::string> workspaceVersionFileGlobs();

}  // namespace dsls::workspace

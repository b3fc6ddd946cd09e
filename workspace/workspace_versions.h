// Finds the DeepSpeed and PyTorch versions a workspace pins or has installed (read-only).
#pragma once

#include "analysis/core/settings.h"
#include "lsp/logger.h"

#include <string>
#include <vector>

namespace dsls::lsp {

// Fills settings.deepspeedVersion / torchVersion when they are empty, from the first of:
// requirements*.txt, pyproject.toml, setup.cfg, environment.yml in a root, then an installed
// deepspeed-*.dist-info / torch-*.dist-info in a virtualenv under the root.
void detectWorkspaceVersions(const std::vector<std::string>& roots, analysis::Settings& settings, Logger& log);

// Glob patterns (LSP file watchers) of every file detectWorkspaceVersions reads, and of the
// pyproject.toml files whose [tool.dsls] section applies to documents.
std::vector<std::string> workspaceVersionFileGlobs();

}  // namespace dsls::lsp

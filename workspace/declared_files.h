// The file readers behind declarationsIn (workspace/declared_versions.h), one per kind of file.
// Each appends the declarations of `package` it finds under `root`.
#pragma once

#include "workspace/declared_versions.h"

namespace dsls::workspace {

std::string normalName(std::string_view name);
std::string readDeclarationFile(const std::filesystem::path& path);  // "" when missing or over 1 MiB

// requirements*.txt and constraints*.txt at the root, requirements/*.txt, and what they include
// with -r / -c (each file once). pip freeze output is a requirements file.
void readRequirementFiles(const std::filesystem::path& root, std::string_view package, std::vector<Declaration>& out);
// [project] dependencies, [project.optional-dependencies], [tool.poetry.dependencies] and Poetry groups.
void readPyproject(const std::filesystem::path& root, std::string_view package, std::vector<Declaration>& out);
// [options] install_requires and [options.extras_require].
void readSetupCfg(const std::filesystem::path& root, std::string_view package, std::vector<Declaration>& out);
// install_requires=[...] in setup.py, its string literals only (nothing is run).
void readSetupPy(const std::filesystem::path& root, std::string_view package, std::vector<Declaration>& out);
// environment.yml / environment.yaml: conda entries (name=1.2 or name==1.2) and the pip section.
void readCondaEnvironments(const std::filesystem::path& root, std::string_view package,
                           std::vector<Declaration>& out);
// uv.lock and poetry.lock: the exact version resolved.
void readLockFiles(const std::filesystem::path& root, std::string_view package, std::vector<Declaration>& out);

}  // namespace dsls::workspace

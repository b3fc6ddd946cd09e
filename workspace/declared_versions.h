// Where a Python project declares deepspeed and torch, read file by file: requirements files
// (and the files they include with -r / -c), pyproject.toml (PEP 621 dependencies and
// optional-dependencies, Poetry), setup.cfg install_requires, setup.py install_requires (string
// literals only), conda environment files, uv.lock and poetry.lock. Each declaration keeps its
// specifier as PEP 440 text; combining them is workspace/version_declarations.cpp.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::workspace {

struct Declaration {
  std::string package;  // "deepspeed" or "torch", as asked
  std::string spec;     // PEP 440 specifier text: "==0.14.2", ">=0.18.6,<0.19.0", "" for any
  std::string where;    // "requirements/prod.txt:3", relative to the project root
};

// "deepspeed[autotuning]>=0.14; python_version>'3.8'" -> (name "deepspeed", spec ">=0.14").
struct Requirement {
  std::string name;  // lower case, '_' and '.' read as '-'
  std::string spec;
};
std::optional<Requirement> parseRequirement(std::string_view text);
// Poetry's "^0.14.2", "~0.14", "0.14.2", "*", ">=0.14,<0.16" as a PEP 440 specifier; nullopt when unread.
std::optional<std::string> poetryToPep440(std::string_view constraint);

// Every declaration of `package` in the files of one project root, in a fixed order
// (docs/cli.md, "Where versions come from").
std::vector<Declaration> declarationsIn(const std::filesystem::path& root, std::string_view package);

}  // namespace dsls::workspace

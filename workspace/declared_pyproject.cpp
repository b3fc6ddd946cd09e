// pyproject.toml (PEP 621 and Poetry) and the lock files uv and Poetry write, read with toml++.
#include "workspace/declared_files.h"

#include <toml++/toml.h>

namespace dsls::workspace {
namespace fs = std::filesystem;
namespace {

std::optional<toml::table> parseToml(const fs::path& file) {
  std::string text = readDeclarationFile(file);
  if (text.empty()) return std::nullopt;
  try {
    return toml::parse(text);
  } catch (const toml::parse_error&) {
    return std::nullopt;  // a broken pyproject.toml is reported by its [tool.dsls] reader
  }
}

std::string at(std::string_view file, const toml::node& node) {
  return std::string(file) + ":" + std::to_string(node.source().begin.line);
}

void readPep508List(const toml::node* list, std::string_view file, std::string_view package,
                    std::vector<Declaration>& out) {
  const toml::array* array = list ? list->as_array() : nullptr;
  if (!array) return;
  for (const toml::node& item : *array) {
    auto text = item.value<std::string>();
    if (!text) continue;
    auto r = parseRequirement(*text);
    if (r && r->name == package) out.push_back({std::string(package), r->spec, at(file, item)});
  }
}

// A Poetry dependency table: name = "^0.14" or name = { version = "^0.14", ... }.
void readPoetryTable(const toml::node* deps, std::string_view package, std::vector<Declaration>& out) {
  const toml::table* table = deps ? deps->as_table() : nullptr;
  if (!table) return;
  for (const auto& [name, value] : *table) {
    if (normalName(name.str()) != package) continue;
    const toml::node* version = value.is_table() ? value.as_table()->get("version") : &value;
    auto text = version ? version->value<std::string>() : std::nullopt;
    if (!text) continue;
    if (auto spec = poetryToPep440(*text)) out.push_back({std::string(package), *spec, at("pyproject.toml", *version)});
  }
}

}  // namespace

void readPyproject(const fs::path& root, std::string_view package, std::vector<Declaration>& out) {
  auto doc = parseToml(root / "pyproject.toml");
  if (!doc) return;
  readPep508List(doc->at_path("project.dependencies").node(), "pyproject.toml", package, out);
  if (const toml::table* extras = doc->at_path("project.optional-dependencies").as_table())
    for (const auto& [group, list] : *extras) readPep508List(&list, "pyproject.toml", package, out);
  readPoetryTable(doc->at_path("tool.poetry.dependencies").node(), package, out);
  readPoetryTable(doc->at_path("tool.poetry.dev-dependencies").node(), package, out);
  if (const toml::table* groups = doc->at_path("tool.poetry.group").as_table())
    for (const auto& [group, body] : *groups)
      if (const toml::table* t = body.as_table()) readPoetryTable(t->get("dependencies"), package, out);
}

void readLockFiles(const fs::path& root, std::string_view package, std::vector<Declaration>& out) {
  for (const char* name : {"uv.lock", "poetry.lock"}) {
    auto doc = parseToml(root / name);
    const toml::array* packages = doc ? doc->get_as<toml::array>("package") : nullptr;
    if (!packages) continue;
    for (const toml::node& entry : *packages) {
      const toml::table* t = entry.as_table();
      auto pkgName = t ? t->get_as<std::string>("name") : nullptr;
      auto version = t ? t->get_as<std::string>("version") : nullptr;
      if (pkgName && version && normalName(pkgName->get()) == package)
        out.push_back({std::string(package), std::string("==").append(version->get()), at(name, *version)});
    }
  }
}

}  // namespace dsls::workspace

// setup.cfg install_requires and setup.py install_requires=[...], read as text: setup.py is
// never run, only the string literals inside its install_requires list are read.
#include "workspace/declared_files.h"

#include <sstream>

namespace dsls::workspace {
namespace fs = std::filesystem;
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

void add(std::string_view requirement, std::string where, std::string_view package, std::vector<Declaration>& out) {
  auto r = parseRequirement(requirement);
  if (r && r->name == package) out.push_back({std::string(package), r->spec, std::move(where)});
}

int lineOf(std::string_view text, std::size_t offset) {
  int line = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

}  // namespace

void readSetupCfg(const fs::path& root, std::string_view package, std::vector<Declaration>& out) {
  std::istringstream in(readDeclarationFile(root / "setup.cfg"));
  std::string raw, section;
  bool inList = false;  // inside a dependency list: install_requires or an extras_require entry
  for (int number = 1; std::getline(in, raw); ++number) {
    std::string_view line = raw;
    if (auto hash = line.find(" #"); hash != std::string_view::npos) line = line.substr(0, hash);
    bool continuation = !line.empty() && (line.front() == ' ' || line.front() == '\t');
    line = trim(line);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      section = std::string(trim(line.substr(1, line.find(']') - 1)));
      inList = false;
      continue;
    }
    std::string_view value = line;
    if (!continuation) {
      std::size_t eq = line.find('=');
      std::string_view key = trim(line.substr(0, eq));
      inList = eq != std::string_view::npos && ((section == "options" && key == "install_requires") ||
                                                section == "options.extras_require");
      value = eq == std::string_view::npos ? std::string_view{} : trim(line.substr(eq + 1));
    }
    if (inList && !value.empty()) add(value, std::string("setup.cfg:").append(std::to_string(number)), package, out);
  }
}

void readSetupPy(const fs::path& root, std::string_view package, std::vector<Declaration>& out) {
  std::string text = readDeclarationFile(root / "setup.py");
  std::size_t at = text.find("install_requires");
  if (at == std::string::npos) return;
  std::size_t open = text.find_first_not_of(" \t\r\n=", at + 16);
  if (open == std::string::npos || text[open] != '[') return;  // a variable or call: not read statically
  for (std::size_t i = open + 1; i < text.size() && text[i] != ']'; ++i) {
    char quote = text[i];
    if (quote == '#') {
      i = text.find('\n', i);
      if (i == std::string::npos) return;
      continue;
    }
    if (quote != '"' && quote != '\'') continue;
    std::size_t close = text.find(quote, i + 1);
    if (close == std::string::npos) return;
    add(std::string_view(text).substr(i + 1, close - i - 1), std::string("setup.py:").append(std::to_string(lineOf(text, i))), package,
        out);
    i = close;
  }
}

}  // namespace dsls::workspace

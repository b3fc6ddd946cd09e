// Requirements files and conda environment files: line-oriented declarations.
#include "workspace/declared_files.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace dsls::workspace {
namespace fs = std::filesystem;
namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string relativeName(const fs::path& file, const fs::path& root) {
  std::error_code ec;
  fs::path rel = fs::relative(file, root, ec);
  return (ec || rel.empty() ? file : rel).generic_string();
}

// The file a "-r other.txt" / "--constraint=c.txt" line includes.
std::optional<std::string> includedFile(std::string_view line) {
  for (std::string_view flag : {"--requirement", "--constraint", "-r", "-c"}) {
    if (!startsWith(line, flag) || line.size() == flag.size()) continue;
    std::string_view rest = line.substr(flag.size());
    if (flag.size() > 2 && rest.front() != ' ' && rest.front() != '=') continue;
    if (rest.front() == '=') rest.remove_prefix(1);
    rest = trim(rest);
    if (!rest.empty()) return std::string(rest);
  }
  return std::nullopt;
}

void readRequirements(const fs::path& file, const fs::path& root, std::string_view package,
                      std::set<fs::path>& seen, std::vector<Declaration>& out) {
  std::error_code ec;
  fs::path key = fs::weakly_canonical(file, ec);
  if (!seen.insert(ec ? file : key).second) return;
  std::istringstream in(readDeclarationFile(file));
  std::string raw;
  for (int number = 1; std::getline(in, raw); ++number) {
    std::string_view line = trim(raw);
    if (auto hash = line.find('#'); hash == 0 || (hash != std::string_view::npos && line[hash - 1] == ' '))
      line = trim(line.substr(0, hash));
    if (auto included = includedFile(line)) {
      readRequirements(file.parent_path() / *included, root, package, seen, out);
      continue;
    }
    if (line.empty() || line.front() == '-') continue;
    auto r = parseRequirement(line);
    if (!r || r->name != package) continue;
    std::string where = relativeName(file, root);
    where += ':';
    where += std::to_string(number);
    out.push_back({std::string(package), r->spec, std::move(where)});
  }
}

std::vector<fs::path> filesMatching(const fs::path& dir, std::initializer_list<std::string_view> prefixes,
                                    std::string_view extension) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (it->path().extension() != extension) continue;
    for (std::string_view p : prefixes)
      if (p.empty() || startsWith(name, p)) {
        files.push_back(it->path());
        break;
      }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A conda entry "deepspeed=0.14.2=py310_0", "pytorch>=2.1", "deepspeed==0.14.*" as PEP 440.
std::optional<Requirement> condaRequirement(std::string_view entry) {
  if (auto colon = entry.find("::"); colon != std::string_view::npos) entry = entry.substr(colon + 2);
  std::size_t op = entry.find_first_of("=<>!~ ");
  if (op == std::string_view::npos) return Requirement{normalName(entry), ""};
  bool single = entry[op] == '=' && (op + 1 >= entry.size() || entry[op + 1] != '=');
  if (!single) return parseRequirement(entry);
  std::string_view version = entry.substr(op + 1);
  version = version.substr(0, version.find('='));  // drop the build string
  std::string spec = "==";
  spec += version;
  if (version.size() > 1 && version.back() == '*' && version[version.size() - 2] != '.') {
    spec.pop_back();
    spec += ".*";
  }
  return Requirement{normalName(entry.substr(0, op)), spec};
}

}  // namespace

std::string readDeclarationFile(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec) || fs::file_size(p, ec) > (1u << 20)) return {};
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void readRequirementFiles(const fs::path& root, std::string_view package, std::vector<Declaration>& out) {
  std::set<fs::path> seen;
  for (const auto& f : filesMatching(root, {"requirements", "constraints"}, ".txt"))
    readRequirements(f, root, package, seen, out);
  for (const auto& f : filesMatching(root / "requirements", {""}, ".txt")) readRequirements(f, root, package, seen, out);
}

void readCondaEnvironments(const fs::path& root, std::string_view package, std::vector<Declaration>& out) {
  for (const char* name : {"environment.yml", "environment.yaml"}) {
    std::istringstream in(readDeclarationFile(root / name));
    std::string raw;
    std::size_t pipIndent = std::string::npos;  // the indentation of "- pip:" while inside it
    for (int number = 1; std::getline(in, raw); ++number) {
      std::string_view line = raw;
      if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
      std::size_t indent = line.find_first_not_of(' ');
      line = trim(line);
      if (line.empty()) continue;
      if (pipIndent != std::string::npos && indent <= pipIndent) pipIndent = std::string::npos;
      if (!startsWith(line, "- ")) continue;
      std::string_view entry = trim(line.substr(2));
      if (entry.size() > 1 && (entry.front() == '"' || entry.front() == '\'')) entry = entry.substr(1, entry.size() - 2);
      if (entry == "pip:") {
        pipIndent = indent;
        continue;
      }
      bool pip = pipIndent != std::string::npos;
      auto r = pip ? parseRequirement(entry) : condaRequirement(entry);
      // conda names PyTorch "pytorch".
      bool match = r && (r->name == package || (!pip && package == "torch" && r->name == "pytorch"));
      if (match) out.push_back({std::string(package), r->spec, std::string(name) + ":" + std::to_string(number)});
    }
  }
}

}  // namespace dsls::workspace

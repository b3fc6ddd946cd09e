#include "workspace/declared_versions.h"

#include "workspace/declared_files.h"

#include <algorithm>
#include <cctype>

namespace dsls::workspace {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; }

// Three-part release text for a caret or tilde bound: "0.14" -> {0, 14}.
std::vector<long> releaseParts(std::string_view v, bool& ok) {
  std::vector<long> parts;
  ok = !v.empty();
  std::size_t start = 0;
  while (ok && start <= v.size()) {
    std::size_t dot = v.find('.', start);
    std::string_view p = v.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    ok = !p.empty() && std::all_of(p.begin(), p.end(), [](char c) { return c >= '0' && c <= '9'; }) && p.size() < 9;
    if (ok) parts.push_back(std::stol(std::string(p)));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string joinParts(const std::vector<long>& parts) {
  std::string s;
  for (long p : parts) { if (!s.empty()) s += "."; s += std::to_string(p); }
  return s;
}

}  // namespace

std::string normalName(std::string_view name) {
  std::string s;
  for (char c : name) s += (c == '_' || c == '.') ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::optional<Requirement> parseRequirement(std::string_view text) {
  if (auto semi = text.find(';'); semi != std::string_view::npos) text = text.substr(0, semi);
  if (auto hash = text.find(" #"); hash != std::string_view::npos) text = text.substr(0, hash);
  text = trim(text);
  std::size_t i = 0;
  while (i < text.size() && isNameChar(text[i])) ++i;
  if (i == 0) return std::nullopt;
  Requirement r{normalName(text.substr(0, i)), ""};
  std::string_view rest = trim(text.substr(i));
  if (!rest.empty() && rest.front() == '[') {
    std::size_t close = rest.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    rest = trim(rest.substr(close + 1));
  }
  if (!rest.empty() && rest.front() == '(' && rest.back() == ')') rest = trim(rest.substr(1, rest.size() - 2));
  if (!rest.empty() && rest.front() == '@') return std::nullopt;  // a URL: no version to read
  r.spec = std::string(rest);
  r.spec.erase(std::remove_if(r.spec.begin(), r.spec.end(), [](char c) { return c == ' ' || c == '\t'; }),
               r.spec.end());
  return r;
}

std::optional<std::string> poetryToPep440(std::string_view constraint) {
  std::string_view c = trim(constraint);
  if (c.empty() || c == "*") return std::string();
  if (c.find("||") != std::string_view::npos || c.find('|') != std::string_view::npos) return std::nullopt;
  char first = c.front();
  if (first == '^' || (first == '~' && (c.size() < 2 || c[1] != '='))) {
    bool ok = false;
    std::vector<long> parts = releaseParts(trim(c.substr(1)), ok);
    if (!ok) return std::nullopt;
    std::vector<long> upper = parts;
    if (first == '^') {
      // The first non-zero part may not change ("^0.14.2" < 0.15.0, "^1.2" < 2.0).
      std::size_t keep = 0;
      while (keep + 1 < upper.size() && upper[keep] == 0) ++keep;
      upper.resize(keep + 1);
    } else {
      upper.resize(std::min<std::size_t>(upper.size(), 2));  // "~0.14.2" < 0.15, "~1" < 2
    }
    ++upper.back();
    return std::string(">=").append(joinParts(parts)).append(",<").append(joinParts(upper));
  }
  if (std::isdigit(static_cast<unsigned char>(first))) return std::string("==").append(c);
  std::string s(c);
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

std::vector<Declaration> declarationsIn(const std::filesystem::path& root, std::string_view package) {
  std::vector<Declaration> out;
  readRequirementFiles(root, package, out);
  readPyproject(root, package, out);
  readSetupCfg(root, package, out);
  readSetupPy(root, package, out);
  readCondaEnvironments(root, package, out);
  readLockFiles(root, package, out);
  return out;
}

}  // namespace dsls::workspace

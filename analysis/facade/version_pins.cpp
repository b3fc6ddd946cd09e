#include "analysis/facade/version_pins.h"

#include "analysis/core/version_spec.h"
#include "analysis/facts/deepspeed_releases.h"

#include <cctype>

namespace dsls::analysis {
namespace {

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; }

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = static_cast<char>(std::tolower(static_cast<unsigned char>(a[i])));
    char y = static_cast<char>(std::tolower(static_cast<unsigned char>(b[i])));
    if ((x == '-' || x == '_') && (y == '-' || y == '_')) continue;
    if (x != y) return false;
  }
  return true;
}

std::optional<std::string> pinInLine(std::string_view line, std::string_view package) {
  for (std::size_t at = 0; at + package.size() <= line.size(); ++at) {
    if (at > 0 && isNameChar(line[at - 1])) continue;
    if (!equalsIgnoreCase(line.substr(at, package.size()), package)) continue;
    std::size_t i = at + package.size();
    if (i < line.size() && isNameChar(line[i])) continue;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i < line.size() && line[i] == '[') {  // extras: deepspeed[autotuning]==...
      std::size_t close = line.find(']', i);
      if (close == std::string_view::npos) return std::nullopt;
      i = close + 1;
      while (i < line.size() && line[i] == ' ') ++i;
    }
    std::size_t equals = 0;
    while (i < line.size() && line[i] == '=') ++equals, ++i;
    if (equals == 0 || equals > 3) return std::nullopt;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i < line.size() && line[i] == 'v') ++i;
    std::size_t start = i;
    while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '.' || line[i] == '+'))
      ++i;
    if (i == start || !std::isdigit(static_cast<unsigned char>(line[start]))) return std::nullopt;
    if (i < line.size() && line[i] == '*') return std::nullopt;  // 0.14.* is a range
    std::string version(line.substr(start, i - start));
    while (!version.empty() && version.back() == '.') version.pop_back();
    return version;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> findVersionPin(std::string_view text, std::string_view package) {
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    if (auto pin = pinInLine(line, package)) return pin;
  }
  return std::nullopt;
}

std::optional<std::string> versionFromDistInfo(std::string_view dir, std::string_view package) {
  constexpr std::string_view kSuffix = ".dist-info";
  if (dir.size() <= package.size() + kSuffix.size() + 1) return std::nullopt;
  if (dir.substr(dir.size() - kSuffix.size()) != kSuffix) return std::nullopt;
  if (!equalsIgnoreCase(dir.substr(0, package.size()), package) || dir[package.size()] != '-') return std::nullopt;
  return std::string(dir.substr(package.size() + 1, dir.size() - kSuffix.size() - package.size() - 1));
}

std::optional<std::vector<std::string>> admittedDeepspeedReleases(std::string_view specifier) {
  auto spec = VersionSpec::parse(specifier);
  if (!spec) return std::nullopt;
  std::vector<std::string> admitted;
  for (std::string_view release : facts::deepspeedReleases())
    if (auto v = PepVersion::parse(release); v && spec->admits(*v)) admitted.emplace_back(release);
  return admitted;
}

}  // namespace dsls::analysis

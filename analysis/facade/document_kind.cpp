#include "analysis/facade/document_kind.h"

#include "analysis/facade/config_detection.h"
#include "analysis/facade/embedded_document.h"
#include "analysis/logs/analyze.h"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace dsls::analysis {
namespace {

constexpr std::array kBuiltinConfigGlobs = {
    "*ds_config*.json", "*ds-config*.json", "*deepspeed*.json", "zero*.json",
    "ds_z*.json",       "*_zero[0-9]*.json", "*zero_stage*.json", "*ds_config*.jsonc",
};

}  // namespace

std::span<const char* const> builtinConfigGlobs() { return kBuiltinConfigGlobs; }

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string_view lastSegment(std::string_view name) {
  if (auto q = name.find_first_of("?#"); q != std::string_view::npos && name.find("://") != std::string_view::npos)
    name = name.substr(0, q);
  if (auto slash = name.find_last_of("/\\"); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  return name;
}

bool hasExtension(std::string_view fileName, std::initializer_list<std::string_view> extensions) {
  std::string l = lower(fileName);
  return std::any_of(extensions.begin(), extensions.end(), [&](std::string_view e) {
    return l.size() >= e.size() && l.compare(l.size() - e.size(), e.size(), e) == 0;
  });
}

// A dependency list (requirements.txt, constraints.txt) names deepspeed and torch but is no log.
bool isDependencyList(std::string_view fileName) {
  std::string l = lower(fileName);
  return l.starts_with("requirements") || l.starts_with("constraints") || l.find("requirements") != std::string::npos;
}

// "torch==2.1.0", "deepspeed>=0.14,<0.15 ; python_version>'3.8'", "accelerate[deepspeed]": one line of a
// pip requirements file (pip freeze writes only such lines).
bool isRequirementLine(std::string_view line) {
  auto nameChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; };
  std::size_t i = 0;
  while (i < line.size() && nameChar(line[i])) ++i;
  if (i == 0) return false;
  if (i < line.size() && line[i] == '[') {
    const std::size_t close = line.find(']', i);
    if (close == std::string_view::npos) return false;
    i = close + 1;
  }
  while (i < line.size() && line[i] == ' ') ++i;
  if (i == line.size() || line[i] == ';' || line[i] == '#') return true;
  return std::string_view("=<>!~").find(line[i]) != std::string_view::npos;
}

// Text whose every line is a requirement, a pip option (-r, -e, --index-url) or a comment, with at
// least one pinned or ranged requirement: a dependency list whatever its name.
bool textIsDependencyList(std::string_view text) {
  bool specifier = false;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    start = end + 1;
    if (line.empty() || line.front() == '#' || line.front() == '-') continue;
    if (!isRequirementLine(line)) return false;
    specifier = specifier || line.find_first_of("=<>~") != std::string_view::npos;
  }
  return specifier;
}

}  // namespace

bool nameLooksLikeDsConfig(std::string_view fileName, const Settings& settings) {
  std::string name = lower(lastSegment(fileName));
  for (const char* glob : kBuiltinConfigGlobs)
    if (fnmatch(glob, name.c_str(), 0) == 0) return true;
  std::string full = std::string(fileName);
  for (const std::string& glob : settings.configGlobs) {
    // A glob with a slash matches the whole path, as editors' file associations do.
    const std::string& subject = glob.find('/') != std::string::npos ? full : name;
    if (fnmatch(glob.c_str(), subject.c_str(), glob.find("**") != std::string::npos ? 0 : FNM_PATHNAME) == 0 ||
        fnmatch(lower(glob).c_str(), lower(subject).c_str(), 0) == 0)
      return true;
  }
  return false;
}

std::optional<HostLanguage> hostLanguageOf(std::string_view name, std::string_view languageId) {
  const std::string_view fileName = lastSegment(name);
  if (languageId == "python" || hasExtension(fileName, {".py"})) return HostLanguage::Python;
  if (languageId == "shellscript" || languageId == "sh" || languageId == "bash" ||
      hasExtension(fileName, {".sh", ".bash", ".slurm", ".sbatch"}))
    return HostLanguage::Shell;
  if (languageId == "yaml" || hasExtension(fileName, {".yaml", ".yml"})) return HostLanguage::AccelerateYaml;
  return std::nullopt;
}

DocumentKind documentKindOf(HostLanguage host) {
  switch (host) {
    case HostLanguage::Python: return DocumentKind::PythonConfig;
    case HostLanguage::Shell: return DocumentKind::ShellConfig;
    case HostLanguage::AccelerateYaml: return DocumentKind::AccelerateConfig;
  }
  return DocumentKind::Other;
}

std::optional<HostLanguage> hostLanguageOf(DocumentKind kind) {
  for (HostLanguage host : {HostLanguage::Python, HostLanguage::Shell, HostLanguage::AccelerateYaml})
    if (documentKindOf(host) == kind) return host;
  return std::nullopt;
}

namespace {
bool jsonLike(std::string_view fileName, std::string_view languageId) {
  return languageId == "json" || languageId == "jsonc" || hasExtension(fileName, {".json", ".jsonc"});
}
}  // namespace

std::optional<HostLanguage> hostLanguageByName(std::string_view name, std::string_view languageId) {
  if (languageId == "log" || jsonLike(lastSegment(name), languageId)) return std::nullopt;
  return hostLanguageOf(name, languageId);
}

DocumentKind classifyDocument(std::string_view name, std::string_view languageId, std::string_view text,
                              const Settings& settings) {
  std::string_view fileName = lastSegment(name);
  if (languageId == "log") return DocumentKind::Log;
  if (jsonLike(fileName, languageId)) {
    bool named = nameLooksLikeDsConfig(fileName, settings) || nameLooksLikeDsConfig(name, settings);
    return jsonLooksLikeDsConfig(text, named) ? DocumentKind::DsConfig : DocumentKind::Other;
  }
  if (auto host = hostLanguageByName(name, languageId)) {
    return holdsEmbeddedConfig(*host, text) ? documentKindOf(*host) : DocumentKind::Other;
  }
  if (isDependencyList(fileName) || (hasExtension(fileName, {".txt"}) && textIsDependencyList(text.substr(0, 64 * 1024))))
    return DocumentKind::Other;
  if (hasExtension(fileName, {".log", ".txt", ".out", ".err"}) && logs::looksLikeTrainingLog(text.substr(0, 64 * 1024)))
    return DocumentKind::Log;
  return DocumentKind::Other;
}

}  // namespace dsls::analysis

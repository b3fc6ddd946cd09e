#include "workspace/workspace_versions.h"

#include "analysis/core/version_spec.h"
#include "analysis/facade/version_pins.h"
#include "workspace/version_declarations.h"

#include <filesystem>

namespace dsls::workspace {
namespace fs = std::filesystem;
namespace {

// Every file declarationsIn reads (workspace/declared_files.h), for the file watchers.
constexpr const char* kPinFileNames[] = {"pyproject.toml", "setup.cfg", "setup.py", "environment.yml",
                                         "environment.yaml", "uv.lock", "poetry.lock"};
constexpr const char* kVirtualenvDirs[] = {".venv", "venv", "env", ".env"};

std::optional<std::pair<std::string, std::string>> installedVersion(const fs::path& root, const std::string& package) {
  std::error_code ec;
  for (const char* venv : kVirtualenvDirs) {
    fs::path lib = root / venv / "lib";
    for (auto py = fs::directory_iterator(lib, ec); !ec && py != fs::directory_iterator(); py.increment(ec)) {
      fs::path site = py->path() / "site-packages";
      for (auto d = fs::directory_iterator(site, ec); !ec && d != fs::directory_iterator(); d.increment(ec))
        if (auto v = analysis::versionFromDistInfo(d->path().filename().string(), package))
          return std::make_pair(*v, (fs::path(venv) / "lib" / py->path().filename() / "site-packages" /
                                     d->path().filename()).string());
    }
    ec.clear();
  }
  return std::nullopt;
}

struct Target {
  std::string& version;
  std::string& source;
  std::string* range = nullptr;                  // deepspeed only
  std::vector<std::string>* releases = nullptr;  // deepspeed only
};

// Applies what one root's declarations say; true when they said something (even a conflict).
bool applyDeclarations(const fs::path& root, const std::string& package, Target& t, const VersionNote& note,
                       std::vector<std::string>& problems) {
  VersionChoice choice = combineDeclarations(declarationsIn(root, package), package);
  for (auto& p : choice.problems) {
    if (note) note(p);
    problems.push_back(std::move(p));
  }
  if (!choice.found()) return !choice.where.empty();  // a conflict: the nearest project still decides
  if (!choice.exact.empty()) {
    t.version = choice.exact;
    t.source = choice.source;
    if (note) note(package + " " + t.version + " pinned in " + (root / choice.source).string());
    return true;
  }
  if (!t.range) return true;  // a torch range: no list of PyTorch releases to filter
  t.source = choice.source;
  *t.range = choice.range;
  *t.releases = choice.releases;
  if (note)
    note(package + " " + choice.range + " declared in " + choice.where + " (" + std::to_string(choice.releases.size()) +
         " known releases: " + choice.releases.front() + " to " + choice.releases.back() + ")");
  return true;
}

// A declared range may be narrowed to the release installed beside it: what that project runs.
bool installedWithinRange(const Target& t) { return t.version.empty() && t.range && !t.range->empty(); }

bool admits(const std::string& range, const std::string& version) {
  auto spec = analysis::VersionSpec::parse(range);
  auto v = analysis::PepVersion::parse(version);
  return spec && v && spec->admits(*v);
}

// The nearest root that declares the package decides; a root without a declaration may still
// have it installed in a virtualenv, and an installed release a declared range admits narrows it.
void detect(const std::vector<std::string>& roots, const std::string& package, Target t, const VersionNote& note,
            std::vector<std::string>& problems) {
  if (!t.version.empty() || (t.range && !t.range->empty())) return;
  for (const auto& root : roots) {
    bool declared = applyDeclarations(root, package, t, note, problems);
    if (declared && !installedWithinRange(t)) return;
    if (auto found = installedVersion(root, package); found && (!declared || admits(*t.range, found->first))) {
      if (t.range) {
        t.range->clear();
        t.releases->clear();
      }
      t.version = found->first;
      t.source = found->second;
      if (note) note(package + " " + t.version + " installed in " + found->second);
      return;
    }
    if (declared) return;
  }
}

}  // namespace

std::vector<std::string> workspaceVersionFileGlobs() {
  std::vector<std::string> globs{"**/requirements*.txt", "**/constraints*.txt", "**/requirements/*.txt"};
  for (const char* name : kPinFileNames) globs.push_back(std::string("**/") + name);
  // An install or upgrade in a virtualenv rewrites the package's dist-info folder.
  globs.push_back("**/site-packages/{deepspeed,torch}-*.dist-info/METADATA");
  return globs;
}

std::vector<std::string> detectWorkspaceVersions(const std::vector<std::string>& roots, analysis::Settings& settings,
                                                 const VersionNote& note) {
  std::vector<std::string> problems;
  detect(roots, "deepspeed",
         {settings.deepspeedVersion, settings.deepspeedVersionSource, &settings.deepspeedRange,
          &settings.deepspeedReleases},
         note, problems);
  detect(roots, "torch", {settings.torchVersion, settings.torchVersionSource}, note, problems);
  return problems;
}

}  // namespace dsls::workspace

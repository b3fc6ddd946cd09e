#include "workspace/workspace_versions.h"

#include "analysis/facade/version_pins.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dsls::workspace {
namespace fs = std::filesystem;
namespace {

std::string readSmallFile(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec) || fs::file_size(p, ec) > (1u << 20)) return {};
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The pin files besides requirements*.txt, in the order they are read.
constexpr const char* kPinFileNames[] = {"pyproject.toml", "setup.cfg", "environment.yml", "environment.yaml"};
constexpr const char* kVirtualenvDirs[] = {".venv", "venv", "env", ".env"};

std::vector<fs::path> pinFiles(const fs::path& root) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::directory_iterator(root, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind("requirements", 0) == 0 && it->path().extension() == ".txt") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const char* name : kPinFileNames) files.push_back(root / name);
  return files;
}

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

void detect(const std::vector<std::string>& roots, const std::string& package, std::string& version,
            std::string& source, const VersionNote& note) {
  if (!version.empty()) return;
  for (const auto& root : roots) {
    for (const auto& file : pinFiles(root)) {
      if (auto pin = analysis::findVersionPin(readSmallFile(file), package)) {
        version = *pin;
        source = file.filename().string();
        if (note) note(package + " " + version + " pinned in " + file.string());
        return;
      }
    }
    if (auto found = installedVersion(root, package)) {
      version = found->first;
      source = found->second;
      if (note) note(package + " " + version + " installed in " + found->second);
      return;
    }
  }
}

}  // namespace

std::vector<std::string> workspaceVersionFileGlobs() {
  std::vector<std::string> globs{"**/requirements*.txt"};
  for (const char* name : kPinFileNames) globs.push_back(std::string("**/") + name);
  // An install or upgrade in a virtualenv rewrites the package's dist-info folder.
  globs.push_back("**/site-packages/{deepspeed,torch}-*.dist-info/METADATA");
  return globs;
}

void detectWorkspaceVersions(const std::vector<std::string>& roots, analysis::Settings& settings,
                             const VersionNote& note) {
  detect(roots, "deepspeed", settings.deepspeedVersion, settings.deepspeedVersionSource, note);
  detect(roots, "torch", settings.torchVersion, settings.torchVersionSource, note);
}

}  // namespace dsls::workspace

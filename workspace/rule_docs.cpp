#include "workspace/rule_docs.h"

#include <filesystem>

namespace dsls::workspace {

std::string ruleDocsPath(std::string_view code) {
  static const std::string rulesDir = [] {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      fs::path installed = exe.parent_path().parent_path() / "share" / "doc" / "dsls" / "rules";
      if (fs::is_directory(installed, ec)) return installed.string();
    }
    return std::string(DSLS_DOCS_DIR) + "/rules";
  }();
  if (code.starts_with("log-")) return rulesDir + "/../logs/README.md";
  return rulesDir + "/" + std::string(code) + ".md";
}

}  // namespace dsls::workspace

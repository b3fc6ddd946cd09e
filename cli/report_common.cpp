#include "cli/reporter.h"

#include "workspace/rule_docs.h"

#include <cctype>

namespace dsls::cli {

std::string pathToUriReference(const std::string& path) {
  static const char* hex = "0123456789ABCDEF";
  std::string out = !path.empty() && path.front() == '/' ? "file://" : "";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);  // a byte, for isalnum and the hex digits
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string ruleHelpUri(const std::string& base, const std::string& code) {
  if (!base.empty()) return base + code + ".md";
  // A build can name where the pages are published; otherwise the files shipped with dsls.
  std::string published = DSLS_RULE_DOCS_URL;
  if (!published.empty()) return published + (published.ends_with("/") ? "" : "/") + code + ".md";
  return pathToUriReference(workspace::ruleDocsPath(code));
}

}  // namespace dsls::cli

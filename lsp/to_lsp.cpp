#include "lsp/to_lsp.h"

#include "protocol/uri.h"

#include <filesystem>
#include <unistd.h>

namespace dsls::lsp {

using protocol::Json;

protocol::Range Conversion::range(analysis::TextRange r) const {
  return {lines.position(r.begin, encoding), lines.position(r.end, encoding)};
}

Json Conversion::diagnostic(const analysis::Finding& f) const {
  Json d{{"range", range(f.range)},
         {"severity", static_cast<int>(f.severity)},
         {"code", f.code},
         {"source", "dsls"},
         {"message", f.message}};
  d["codeDescription"] = {{"href", ruleDocsUri(f.code)}};
  if (!f.tags.empty()) {
    Json tags = Json::array();
    for (auto t : f.tags) tags.push_back(static_cast<int>(t));
    d["tags"] = tags;
  }
  if (!f.related.empty()) {
    Json related = Json::array();
    for (const auto& r : f.related) {
      std::string targetUri = uri;
      const protocol::LineIndex* index = &lines;
      if (!r.document.empty()) {
        index = otherDocument ? otherDocument(r.document, targetUri) : nullptr;
        if (!index) continue;
      }
      protocol::Range rr{index->position(r.range.begin, encoding), index->position(r.range.end, encoding)};
      related.push_back({{"location", {{"uri", targetUri}, {"range", rr}}}, {"message", r.message}});
    }
    if (!related.empty()) d["relatedInformation"] = related;
  }
  return d;
}

Json Conversion::textEdit(const analysis::TextEdit& e) const {
  return Json{{"range", range(e.range)}, {"newText", e.newText}};
}

Json Conversion::workspaceEdit(const std::vector<analysis::TextEdit>& edits, std::int64_t version) const {
  Json list = Json::array();
  for (const auto& e : edits) list.push_back(textEdit(e));
  // documentChanges pins the version so a client never applies the edit to a newer text.
  return Json{{"changes", {{uri, list}}},
              {"documentChanges", Json::array({{{"textDocument", {{"uri", uri}, {"version", version}}},
                                                {"edits", list}}})}};
}

std::string ruleDocsUri(const std::string& code) {
  static const std::string base = [] {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      fs::path installed = exe.parent_path().parent_path() / "share" / "dsls" / "docs" / "rules";
      if (fs::is_directory(installed, ec)) return protocol::pathToUri(installed.string());
    }
    return protocol::pathToUri(std::string(DSLS_DOCS_DIR) + "/rules");
  }();
  // Log findings share one page describing the failure catalogue.
  if (code.rfind("log-", 0) == 0) return base + "/../logs/README.md";
  return base + "/" + code + ".md";
}

}  // namespace dsls::lsp

// The json format, version 1 (documented in docs/cli.md): files with findings in line/column
// form (plus byte offsets), the log report of each log, skipped files, errors and a summary.
#include "cli/reporter.h"

#include "analysis/facade/log_document.h"

#include <nlohmann/json.hpp>

namespace dsls::cli {
namespace {

using Json = nlohmann::ordered_json;

Json position(const Position& p) { return Json{{"line", p.line}, {"column", p.column}, {"offset", p.offset}}; }

Json range(const FileReport& r, analysis::TextRange range) {
  return Json{{"start", position(r.positions.at(range.begin))}, {"end", position(r.positions.at(range.end))}};
}

Json findingJson(const FileReport& r, const analysis::Finding& f) {
  Json j{{"code", f.code}, {"severity", severityWord(f.severity)}, {"message", f.message}, {"range", range(r, f.range)}};
  Json tags = Json::array();
  for (auto t : f.tags) tags.push_back(t == analysis::Tag::Deprecated ? "deprecated" : "unnecessary");
  j["tags"] = tags;
  Json related = Json::array();
  for (const auto& rel : f.related) {
    bool here = rel.document.empty() || rel.document == r.path;
    related.push_back(Json{{"path", here ? r.path : rel.document},
                           {"range", here ? range(r, rel.range) : Json(nullptr)},
                           {"message", rel.message}});
  }
  j["related"] = related;
  Json fixes = Json::array();
  for (const auto& fix : f.fixes) {
    Json edits = Json::array();
    for (const auto& e : fix.edits) edits.push_back(Json{{"range", range(r, e.range)}, {"newText", e.newText}});
    fixes.push_back(Json{{"title", fix.title}, {"preferred", fix.preferred}, {"safe", fix.safe}, {"edits", edits}});
  }
  j["fixes"] = fixes;
  return j;
}

class JsonReporter : public Reporter {
 public:
  JsonReporter(std::ostream& out, bool logReport) : out_(out), logReport_(logReport) {}

  void file(const FileReport& r) override {
    Json f{{"path", r.path}, {"kind", kindName(r.kind)}};
    Json findings = Json::array();
    for (const auto& finding : r.findings) findings.push_back(findingJson(r, finding));
    f["findings"] = std::move(findings);
    f["fixed"] = r.fixed;
    f["written"] = r.written;
    if (r.log && logReport_)
      f["log"] = Json::parse(analysis::logReportJson(*r.log).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    files_.push_back(std::move(f));
  }

  void job(const analysis::JobReport& j) override {
    jobs_.push_back(Json::parse(analysis::jobJson(j).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
  }

  void skipped(const Skip& s) override { skipped_.push_back(Json{{"path", s.path}, {"reason", s.reason}}); }
  void error(const Skip& s) override { errors_.push_back(Json{{"path", s.path}, {"message", s.reason}}); }

  void finish(const Summary& s) override {
    Json doc{{"version", 1}, {"tool", Json{{"name", "dsls"}, {"version", DSLS_VERSION}}}};
    doc["files"] = std::move(files_);
    if (!jobs_.empty()) doc["jobs"] = std::move(jobs_);  // per-rank logs found in a folder
    doc["skipped"] = std::move(skipped_);
    doc["errors"] = std::move(errors_);
    doc["summary"] = Json{{"filesChecked", s.filesChecked},
                          {"findings", s.findings},
                          {"bySeverity", Json{{"error", s.bySeverity[0]},
                                              {"warning", s.bySeverity[1]},
                                              {"information", s.bySeverity[2]},
                                              {"hint", s.bySeverity[3]}}},
                          {"fixable", s.fixable},
                          {"fixed", s.fixed},
                          {"filesWritten", s.filesWritten},
                          {"skipped", s.skipped},
                          {"gitignored", s.gitignored},
                          {"ioErrors", s.errors},
                          {"failOn", severityWord(s.failOn)},
                          {"failed", s.failed}};
    out_ << doc.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
    out_.flush();
  }

 private:
  std::ostream& out_;
  bool logReport_;
  Json files_ = Json::array();
  Json jobs_ = Json::array();
  Json skipped_ = Json::array();
  Json errors_ = Json::array();
};

}  // namespace

std::unique_ptr<Reporter> makeJsonReporter(std::ostream& out, bool logReport) {
  return std::make_unique<JsonReporter>(out, logReport);
}

}  // namespace dsls::cli

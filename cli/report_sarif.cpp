// The sarif format: one SARIF 2.1.0 run whose driver lists every rule dsls has (from the
// registries), and one result per finding with its region, related locations and fixes.
// Columns are Unicode code points (run.columnKind), the same columns the text format prints.
#include "cli/reporter.h"

#include "analysis/facade/rule_list.h"
#include "cli/rule_index.h"

#include <nlohmann/json.hpp>

#include <map>

namespace dsls::cli {
namespace {

using Json = nlohmann::ordered_json;

const char* sarifLevel(analysis::Severity s) {
  switch (s) {
    case analysis::Severity::Error: return "error";
    case analysis::Severity::Warning: return "warning";
    case analysis::Severity::Information:
    case analysis::Severity::Hint: return "note";
  }
  return "warning";
}

Json region(const FileReport& r, analysis::TextRange range) {
  Position start = r.positions.at(range.begin), end = r.positions.at(range.end);
  return Json{{"startLine", start.line}, {"startColumn", start.column}, {"endLine", end.line}, {"endColumn", end.column}};
}

Json artifact(const std::string& path) { return Json{{"uri", pathToUriReference(path)}}; }

class SarifReporter : public Reporter {
 public:
  SarifReporter(std::ostream& out, std::string ruleDocsUrl) : out_(out), docsUrl_(std::move(ruleDocsUrl)) {
    for (const auto& rule : analysis::ruleList()) addRule(rule.code, rule.summary, rule.severity);
  }

  void file(const FileReport& r) override {
    for (const auto& f : r.findings) {
      if (!ruleIndex_.count(f.code)) addRule(f.code, f.code, f.severity);
      Json result{{"ruleId", f.code},
                  {"ruleIndex", ruleIndex_[f.code]},
                  {"level", sarifLevel(f.severity)},
                  {"message", Json{{"text", f.message}}},
                  {"locations", Json::array({location(r.path, region(r, f.range))})}};
      Json related = Json::array();
      for (std::size_t i = 0; i < f.related.size(); ++i) {
        const auto& rel = f.related[i];
        bool here = rel.document.empty() || rel.document == r.path;
        Json physical{{"artifactLocation", artifact(here ? r.path : rel.document)}};
        if (here) physical["region"] = region(r, rel.range);
        related.push_back(Json{{"id", i + 1}, {"physicalLocation", physical}, {"message", Json{{"text", rel.message}}}});
      }
      if (!related.empty()) result["relatedLocations"] = std::move(related);
      Json fixes = Json::array();
      for (const auto& fix : f.fixes) {
        if (fix.edits.empty()) continue;
        Json replacements = Json::array();
        for (const auto& e : fix.edits)
          replacements.push_back(Json{{"deletedRegion", region(r, e.range)}, {"insertedContent", Json{{"text", e.newText}}}});
        fixes.push_back(Json{{"description", Json{{"text", fix.title}}},
                             {"artifactChanges", Json::array({Json{{"artifactLocation", artifact(r.path)},
                                                                   {"replacements", std::move(replacements)}}})}});
      }
      if (!fixes.empty()) result["fixes"] = std::move(fixes);
      results_.push_back(std::move(result));
    }
  }

  void error(const Skip& s) override {
    notifications_.push_back(Json{{"level", "error"},
                                  {"message", Json{{"text", s.path + ": " + s.reason}}},
                                  {"locations", Json::array({Json{{"physicalLocation", Json{{"artifactLocation", artifact(s.path)}}}}})}});
  }

  // The job's findings are results at their files and lines; the run's properties say which
  // files made one job and what its diagnosis is.
  void job(const analysis::JobReport& j) override {
    Json files = Json::array();
    for (const auto& path : j.paths) files.push_back(path);
    jobs_.push_back(Json{{"name", j.job.name},
                         {"layout", std::string(analysis::layoutName(j.job.layout))},
                         {"root", j.job.root},
                         {"ranks", j.job.ranks},
                         {"files", std::move(files)},
                         {"summary", analysis::jobSummary(j)}});
  }

  void finish(const Summary& s) override {
    Json driver{{"name", "dsls"},
                {"version", DSLS_VERSION},
                {"semanticVersion", DSLS_VERSION},
                {"rules", std::move(rules_)}};
    Json invocation{{"executionSuccessful", s.errors == 0}};
    if (!notifications_.empty()) invocation["toolExecutionNotifications"] = std::move(notifications_);
    Json run{{"tool", Json{{"driver", std::move(driver)}}},
             {"invocations", Json::array({std::move(invocation)})},
             {"columnKind", "unicodeCodePoints"},
             {"results", std::move(results_)}};
    if (!jobs_.empty()) run["properties"] = Json{{"jobs", std::move(jobs_)}};
    Json doc{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
             {"version", "2.1.0"},
             {"runs", Json::array({std::move(run)})}};
    out_ << doc.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
    out_.flush();
  }

 private:
  Json jobs_ = Json::array();
  static Json location(const std::string& path, Json regionJson) {
    return Json{{"physicalLocation", Json{{"artifactLocation", artifact(path)}, {"region", std::move(regionJson)}}}};
  }

  void addRule(const std::string& code, const std::string& summary, analysis::Severity severity) {
    ruleIndex_[code] = rules_.size();
    Json rule{{"id", code},
              {"shortDescription", Json{{"text", summary}}},
              {"helpUri", ruleHelpUri(docsUrl_, code)},
              {"defaultConfiguration", Json{{"level", sarifLevel(severity)}}}};
    if (auto page = ruleDocumentation(code)) rule["help"] = Json{{"text", std::string(*page)}, {"markdown", std::string(*page)}};
    else rule["help"] = Json{{"text", summary}};
    rules_.push_back(std::move(rule));
  }

  std::ostream& out_;
  std::string docsUrl_;
  Json rules_ = Json::array();
  std::map<std::string, std::size_t> ruleIndex_;
  Json results_ = Json::array();
  Json notifications_ = Json::array();
};

}  // namespace

std::unique_ptr<Reporter> makeSarifReporter(std::ostream& out, const std::string& ruleDocsUrl) {
  return std::make_unique<SarifReporter>(out, ruleDocsUrl);
}

}  // namespace dsls::cli

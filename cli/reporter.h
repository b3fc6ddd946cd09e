// Output formats of `dsls check`. A reporter sees each file as soon as it is checked and the
// summary at the end; text and github print as they go, json and sarif print one document.
#pragma once

#include "analysis/facade/log_job.h"
#include "cli/check_model.h"
#include "cli/check_options.h"

#include <memory>
#include <ostream>

namespace dsls::cli {

struct Skip {
  std::string path;
  std::string reason;
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void file(const FileReport&) = 0;
  // Per-rank logs analysed as one job, after the job's files.
  virtual void job(const analysis::JobReport&) {}
  virtual void skipped(const Skip&) {}
  virtual void error(const Skip&) {}
  virtual void finish(const Summary&) = 0;
};

// `brief`: findings below warning are counted in one line instead of shown (a folder checked
// without --min-severity).
std::unique_ptr<Reporter> makeTextReporter(std::ostream& out, bool color, bool logReport, bool brief = false);
std::unique_ptr<Reporter> makeJsonReporter(std::ostream& out, bool logReport);
std::unique_ptr<Reporter> makeSarifReporter(std::ostream& out, const std::string& ruleDocsUrl);
std::unique_ptr<Reporter> makeGithubReporter(std::ostream& out);

// Shared helpers.
// `path` as a URI reference: relative paths stay relative ("configs/a%20b.json"), absolute ones become file URIs.
std::string pathToUriReference(const std::string& path);
// Where a rule's page is: `base` + code + ".md", or the docs shipped with dsls when `base` is empty.
std::string ruleHelpUri(const std::string& base, const std::string& code);

}  // namespace dsls::cli

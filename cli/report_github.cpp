// The github format: GitHub Actions workflow commands that annotate the changed files,
// "::warning file=F,line=L,col=C,endLine=L,endColumn=C,title=CODE::MESSAGE".
#include "cli/reporter.h"

namespace dsls::cli {
namespace {

// Workflow command escaping: data escapes %, CR and LF; property values also ':' and ','.
std::string escapeData(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::string escapeProperty(const std::string& s) {
  std::string out;
  for (char c : escapeData(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

const char* command(analysis::Severity s) {
  switch (s) {
    case analysis::Severity::Error: return "error";
    case analysis::Severity::Warning: return "warning";
    case analysis::Severity::Information:
    case analysis::Severity::Hint: return "notice";
  }
  return "warning";
}

class GithubReporter : public Reporter {
 public:
  explicit GithubReporter(std::ostream& out) : out_(out) {}

  void file(const FileReport& r) override {
    for (const auto& f : r.findings) {
      Position start = r.positions.at(f.range.begin), end = r.positions.at(f.range.end);
      std::string message = f.message;
      if (const analysis::Fix* fix = shownFix(f)) message += "\nFix: " + fix->title;
      out_ << "::" << command(f.severity) << " file=" << escapeProperty(r.path) << ",line=" << start.line
           << ",col=" << start.column << ",endLine=" << end.line << ",endColumn=" << end.column
           << ",title=" << escapeProperty("dsls " + f.code) << "::" << escapeData(message) << "\n";
    }
  }

  // One notice for the job; its findings are annotations at their files and lines.
  void job(const analysis::JobReport& j) override {
    out_ << "::notice title=" << escapeProperty("dsls job " + j.job.name) << "::" << escapeData(analysis::jobSummary(j))
         << "\n";
  }

  void error(const Skip& s) override {
    out_ << "::error file=" << escapeProperty(s.path) << ",title=dsls::" << escapeData(s.reason) << "\n";
  }

  void finish(const Summary&) override { out_.flush(); }

 private:
  std::ostream& out_;
};

}  // namespace

std::unique_ptr<Reporter> makeGithubReporter(std::ostream& out) { return std::make_unique<GithubReporter>(out); }

}  // namespace dsls::cli

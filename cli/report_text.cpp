// The text format: one "path:line:col: severity [code] message" line per finding, the source
// line with carets under the range, the suggested fix, then each log's report and a summary.
#include "cli/reporter.h"

#include "analysis/facade/log_document.h"

#include <algorithm>
#include <fmt/format.h>

namespace dsls::cli {
namespace {

constexpr std::size_t kMaxShownColumns = 200;

const char* severityColor(analysis::Severity s) {
  switch (s) {
    case analysis::Severity::Error: return "\033[1;31m";
    case analysis::Severity::Warning: return "\033[1;33m";
    case analysis::Severity::Information: return "\033[1;34m";
    case analysis::Severity::Hint: return "\033[1;36m";
  }
  return "";
}

// The report without its SVG timeline, which a terminal cannot draw (json output keeps the timeline).
std::string terminalMarkdown(std::string markdown) {
  std::size_t open = markdown.find("<svg");
  std::size_t close = markdown.find("</svg>", open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) return markdown;
  markdown.erase(open, close + 6 - open);
  // Drop a heading left with nothing under it.
  std::size_t heading = markdown.rfind("\n## ", open);
  if (heading != std::string::npos &&
      markdown.find_first_not_of(" \t\r\n", markdown.find('\n', heading + 1)) >= open)
    markdown.erase(heading + 1, open - heading - 1);
  while (markdown.ends_with("\n\n")) markdown.pop_back();
  return markdown;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Length of the well-formed UTF-8 sequence at text[i] (1 for ASCII), or 0.
std::size_t utf8Length(std::string_view text, std::size_t i) {
  const unsigned char lead = static_cast<unsigned char>(text[i]);
  std::size_t n = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
                  : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  const unsigned char second = static_cast<unsigned char>(text[i + 1 < text.size() ? i + 1 : i]);
  if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) || (lead == 0xF0 && second < 0x90) ||
      (lead == 0xF4 && second > 0x8F))
    return 0;  // overlong, surrogate or above U+10FFFF
  return n;
}

// Control characters (colour codes, terminal commands; C0, DEL and C1) and bytes that are not
// UTF-8 shown as "?", so that a file cannot drive the terminal. Tabs are kept.
std::string printable(std::string_view text, bool keepNewlines = false) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t n = utf8Length(text, i);
    bool c1 = n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
    if (n == 0 || c1 || c == 0x7f || (c < 0x20 && c != '\t' && !(keepNewlines && c == '\n'))) {
      out += '?';
      i += n == 0 ? 1 : n;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

// The first `maxColumns` code points of `line`, and whether it was cut.
std::string_view clipColumns(std::string_view line, std::size_t maxColumns, bool& cut) {
  std::size_t columns = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;
    if (columns == maxColumns) {
      cut = true;
      return line.substr(0, i);
    }
    ++columns;
  }
  cut = false;
  return line;
}

class TextReporter : public Reporter {
 public:
  TextReporter(std::ostream& out, bool color, bool logReport, bool brief)
      : out_(out), color_(color), logReport_(logReport), brief_(brief) {}

  void file(const FileReport& r) override {
    for (const auto& f : r.findings) {
      if (brief_ && static_cast<int>(f.severity) > static_cast<int>(analysis::Severity::Warning)) {
        ++notShown_;
        continue;
      }
      finding(r, f);
    }
    if (logReport_ && r.log && !r.findings.empty()) {
      std::string markdown = printable(terminalMarkdown(analysis::logReportMarkdown(*r.log)), true);
      out_ << "\n" << paint("\033[1m", "Log report for " + r.path) << "\n\n" << markdown;
      if (!markdown.ends_with("\n")) out_ << "\n";
      out_ << "\n";
    }
    if (r.written) out_ << r.path << ": " << plural(r.fixed, "finding", "findings") << " fixed\n";
  }

  void job(const analysis::JobReport& j) override {
    const bool report = logReport_ && j.report;
    out_ << paint("\033[1m", "Job " + j.job.name) << ": "
         << printable(report ? analysis::jobDescription(j) : analysis::jobSummary(j), false) << "\n";
    if (!report) return;
    std::string markdown = printable(terminalMarkdown(analysis::logReportMarkdown(*j.report)), true);
    out_ << "\n" << markdown;
    if (!markdown.ends_with("\n")) out_ << "\n";
    out_ << "\n";
  }

  void finish(const Summary& s) override {
    if (s.findings == 0) {
      if (s.filesChecked == 0)
        out_ << "No ds_config or training log found.\n";
      else
        out_ << "No findings in " << plural(s.filesChecked, "file", "files") << ".\n";
    } else {
      std::vector<std::string> parts;
      const char* names[4][2] = {{"error", "errors"}, {"warning", "warnings"}, {"information", "information"},
                                 {"hint", "hints"}};
      for (std::size_t i = 0; i < 4; ++i)
        if (s.bySeverity[i]) parts.push_back(plural(s.bySeverity[i], names[i][0], names[i][1]));
      std::string joined;
      for (std::size_t i = 0; i < parts.size(); ++i) joined += (i ? ", " : "") + parts[i];
      out_ << "Found " << plural(s.findings, "finding", "findings") << " (" << joined << ") in "
           << plural(s.filesChecked, "file", "files") << ".";
      if (s.fixable) out_ << " " << s.fixable << " can be fixed with --fix.";
      out_ << "\n";
      if (notShown_)
        out_ << plural(notShown_, "information or hint finding", "information and hint findings")
             << " not shown (--min-severity hint shows them).\n";
    }
    if (s.gitignored)
      out_ << plural(s.gitignored, "untracked .json, .log or .txt file", "untracked .json, .log and .txt files")
           << " that .gitignore excludes " << (s.gitignored == 1 ? "was" : "were")
           << " not looked at (--no-gitignore looks at them; tracked files always are).\n";
    if (s.fixed) out_ << "Fixed " << plural(s.fixed, "finding", "findings") << " in "
                      << plural(s.filesWritten, "file", "files") << ".\n";
    out_.flush();
  }

 private:
  std::string paint(const char* code, const std::string& text) const {
    return color_ ? std::string(code) + text + "\033[0m" : text;
  }

  void finding(const FileReport& r, const analysis::Finding& f) {
    Position start = r.positions.at(f.range.begin);
    Position end = r.positions.at(f.range.end);
    out_ << paint("\033[1m", fmt::format("{}:{}:{}:", printable(r.path), start.line, start.column)) << " "
         << paint(severityColor(f.severity), severityWord(f.severity)) << " "
         << paint("\033[2m", "[" + f.code + "]") << " " << printable(f.message, true) << "\n";
    std::string gutter = std::to_string(start.line);
    std::string pad(gutter.size(), ' ');
    std::string line = printable(r.positions.lineText(f.range.begin));
    bool cut = false;
    std::string_view shown = clipColumns(line, kMaxShownColumns, cut);
    if (!line.empty() || start.column == 1) {
      out_ << " " << paint("\033[2m", gutter + " |") << " " << shown << (cut ? "…" : "") << "\n";
      // Carets under a whole line say nothing the line does not; they are left out.
      bool wholeLine = start.column == 1 && (end.line > start.line || end.column > shownColumns(line));
      if (start.column <= kMaxShownColumns && !wholeLine) {
        // Keep tabs so the carets line up under the text however tabs are shown.
        std::string lead;
        std::size_t column = 1;
        for (std::size_t i = 0; i < shown.size() && column < start.column; ++i) {
          unsigned char c = static_cast<unsigned char>(shown[i]);
          if ((c & 0xC0) == 0x80) continue;
          lead += c == '\t' ? '\t' : ' ';
          ++column;
        }
        std::size_t lastColumn = end.line == start.line ? end.column : std::max<std::size_t>(column, shownColumns(shown) + 1);
        std::size_t width = lastColumn > start.column ? lastColumn - start.column : 1;
        width = std::min(width, kMaxShownColumns + 1 - std::min(start.column, kMaxShownColumns));
        out_ << " " << paint("\033[2m", pad + " |") << " " << lead
             << paint(severityColor(f.severity), std::string(std::max<std::size_t>(width, 1), '^')) << "\n";
      }
    }
    if (const analysis::Fix* fix = shownFix(f)) {
      std::string how = r.written ? "" : fix->safe && !fix->edits.empty() ? " (--fix applies it)" : "";
      out_ << " " << pad << " " << paint("\033[1;32m", "= fix:") << " " << printable(fix->title) << how << "\n";
    }
    for (const auto& rel : f.related) {
      std::string where;
      if (rel.document.empty() || rel.document == r.path) {
        Position p = r.positions.at(rel.range.begin);
        where = fmt::format("{}:{}:{}", r.path, p.line, p.column);
      } else {
        where = rel.document;
      }
      out_ << " " << pad << " " << paint("\033[1;36m", "= note:") << " " << printable(where) << ": "
           << printable(rel.message) << "\n";
    }
  }

  static std::size_t shownColumns(std::string_view s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) {
      return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
  }

  std::ostream& out_;
  bool color_;
  bool logReport_;
  bool brief_;
  std::size_t notShown_ = 0;
};

}  // namespace

std::unique_ptr<Reporter> makeTextReporter(std::ostream& out, bool color, bool logReport, bool brief) {
  return std::make_unique<TextReporter>(out, color, logReport, brief);
}

}  // namespace dsls::cli

#include "analysis/logs/diagnostics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dsls::logs {
namespace {

analysis::TextRange rangeOf(const Evidence& e) { return {e.byteOffset, e.byteOffset + e.length}; }

std::string rankText(const LogFinding& f) {
  if (f.initiatingRank) return fmt::format(" on rank {}", *f.initiatingRank);
  if (f.rankScope == RankScope::All) return ", raised the same way on every rank";
  if (f.rankScope == RankScope::Unknown && f.scopeRanks.size() > 1)
    return fmt::format(" on one of ranks {} (the log does not say which came first)", fmt::join(f.scopeRanks, ", "));
  return {};
}

// In a job's file, a related line in another file of the job names that file.
std::string relatedDocument(const LogReport& report, const Evidence& e, std::optional<std::size_t> file) {
  if (!file || !e.file || *e.file == *file || *e.file >= report.files.size()) return {};
  return report.files[*e.file];
}

std::vector<analysis::Finding> diagnosticsOf(const LogReport& report, std::string_view documentName,
                                             std::optional<std::size_t> file) {
  std::vector<analysis::Finding> out;
  const LogFinding* root = report.initiatingFinding();
  const Evidence* rootLine = root && !root->evidence.empty() ? &root->evidence.front() : nullptr;
  std::string where = documentName.empty() ? std::string("line") : std::string(documentName) + ":";
  if (rootLine && rootLine->file && *rootLine->file < report.files.size()) where = report.files[*rootLine->file] + ":";
  auto relatedToRoot = [&](analysis::Finding& d) {
    if (!rootLine) return;
    d.related.push_back({relatedDocument(report, *rootLine, file), rangeOf(*rootLine),
                         fmt::format("initiating failure: {} ({}{})", root->title, where, rootLine->line)});
  };

  for (const LogFinding& f : report.findings) {
    const std::string code = "log-" + f.id;
    for (std::size_t i = 0; i < f.evidence.size(); ++i) {
      const Evidence& e = f.evidence[i];
      if (file && e.file != file) continue;
      analysis::Finding d;
      d.code = code;
      d.range = rangeOf(e);
      if (&f == root && i == 0) {
        d.severity = analysis::Severity::Error;
        d.message = fmt::format("{}: the initiating failure{}.", f.title, rankText(f));
        if (!f.collateralRanks.empty())
          d.message += fmt::format(" {} other rank{} failed as a consequence.", f.collateralRanks.size(),
                                   f.collateralRanks.size() == 1 ? "" : "s");
        for (std::size_t k = 1; k < f.evidence.size() && k < 6; ++k)
          d.related.push_back({relatedDocument(report, f.evidence[k], file), rangeOf(f.evidence[k]),
                               "the same failure reported again"});
      } else if (&f == root) {
        d.severity = analysis::Severity::Information;
        d.message = fmt::format("{}: the same failure as the initiating line.", f.title);
        relatedToRoot(d);
      } else if (f.collateral && root) {
        d.severity = analysis::Severity::Information;
        d.message = fmt::format("{}: a consequence of {} ({}).", f.title, root->title, root->id);
        relatedToRoot(d);
      } else if (f.collateral) {
        d.severity = f.severity;
        d.message = fmt::format("{}: the initiating failure is not in this log.{}", f.title,
                                f.initiatingRank ? fmt::format(" Suspect: rank {}.", *f.initiatingRank) : "");
      } else {
        d.severity = f.severity;
        d.message = f.title + ".";
        if (root && (f.severity == analysis::Severity::Error)) {
          d.message += fmt::format(" Not the initiating failure: {} came first.", root->id);
          relatedToRoot(d);
        }
      }
      out.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace

std::vector<analysis::Finding> toDiagnostics(const LogReport& report, std::string_view documentName) {
  return diagnosticsOf(report, documentName, std::nullopt);
}

std::vector<analysis::Finding> toJobFileDiagnostics(const LogReport& report, std::size_t file) {
  return diagnosticsOf(report, file < report.files.size() ? report.files[file] : std::string(), file);
}

std::optional<std::string> hoverAt(const LogReport& report, std::size_t byteOffset) {
  const LogFinding* root = report.initiatingFinding();
  for (const LogFinding& f : report.findings) {
    for (const Evidence& e : f.evidence) {
      if (byteOffset < e.byteOffset || byteOffset > e.byteOffset + e.length) continue;
      std::string role;
      if (f.initiating) role = "initiating failure";
      else if (f.collateral && root) role = fmt::format("collateral: a consequence of `{}`", root->id);
      else if (f.collateral) role = "collateral: the initiating failure is not in this log";
      else role = severityName(f.severity);
      std::string md = fmt::format("**{}** (`log-{}`) — {}\n\n", f.title, f.id, role);
      md += "**Rank:** " + rankLabel(f);
      if (!f.rankReason.empty()) md += " — " + f.rankReason;
      md += "\n\n";
      if (!f.collateralRanks.empty()) {
        md += "**Collateral ranks:** ";
        for (std::size_t i = 0; i < f.collateralRanks.size() && i < 64; ++i)
          md += (i ? ", " : "") + std::to_string(f.collateralRanks[i]);
        md += "\n\n";
      }
      md += f.mechanism + "\n\n**Fix.** " + f.fix + "\n\n**Verify.** " + f.verify + "\n";
      if (!f.configKeys.empty()) {
        md += "\n**Config keys:**";
        for (const auto& k : f.configKeys) md += " `" + k + "`";
        md += "\n";
      }
      return md;
    }
  }
  return std::nullopt;
}

}  // namespace dsls::logs

// Markdown form of a LogReport: the initiating failure with its rank, the
// collateral ranks, fix and verify step first; then collateral and other
// findings; the run's versions and resolved config; the timeline SVG last.
#include <fmt/format.h>

#include "analysis/logs/report/log_report.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs {
namespace {

constexpr std::size_t kEvidenceShown = 5;

std::string joinInts(const std::vector<int>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size() && i < 64; ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  if (v.size() > 64) out += fmt::format(", … ({} more)", v.size() - 64);
  return out;
}

std::string codeList(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + ("`" + s + "`");
  return out;
}

void evidenceBlock(std::string& md, const LogReport& r, const LogFinding& f) {
  if (f.evidence.empty()) return;
  md += "~~~text\n";
  for (std::size_t i = 0; i < f.evidence.size() && i < kEvidenceShown; ++i) {
    const Evidence& e = f.evidence[i];
    if (e.file && *e.file < r.files.size()) md += fmt::format("{}:{}: {}\n", r.files[*e.file], e.line, e.text);
    else md += fmt::format("{:>6}: {}\n", e.line, e.text);
  }
  md += "~~~\n";
  if (f.evidenceTotal > kEvidenceShown)
    md += fmt::format("({} matching lines in total.)\n", f.evidenceTotal);
}

void rankLines(std::string& md, const LogFinding& f) {
  md += "- **Rank:** " + rankLabel(f);
  if (!f.rankReason.empty()) md += " — " + f.rankReason;
  md += "\n";
  if (!f.collateralRanks.empty()) md += "- **Collateral ranks:** " + joinInts(f.collateralRanks) + "\n";
}

void details(std::string& md, const LogFinding& f) {
  md += "\n**Mechanism.** " + f.mechanism + "\n\n";
  md += "**Fix.** " + f.fix + "\n\n";
  md += "**Verify.** " + f.verify + "\n";
  if (!f.configKeys.empty()) md += "\n**Config keys:** " + codeList(f.configKeys) + "\n";
  if (!f.ruleCodes.empty()) md += "\n**Config rules:** " + codeList(f.ruleCodes) + "\n";
}

}  // namespace

std::string LogReport::markdown() const {
  std::string md = "# Training log diagnosis\n\n" + verdict + "\n";
  const LogFinding* root = initiatingFinding();
  if (root) {
    md += fmt::format("\n## Initiating failure: {} (`{}`)\n\n", root->title, root->id);
    rankLines(md, *root);
    md += "\n";
    evidenceBlock(md, *this, *root);
    details(md, *root);
  }

  bool header = false;
  for (const LogFinding& f : findings) {
    if (&f == root || !f.collateral) continue;
    if (!header) {
      md += "\n## Collateral\n";
      header = true;
    }
    md += fmt::format("\n### {} (`{}`)\n\n", f.title, f.id);
    rankLines(md, f);
    md += "\n";
    evidenceBlock(md, *this, f);
    details(md, f);
  }
  header = false;
  for (const LogFinding& f : findings) {
    if (&f == root || f.collateral) continue;
    if (!header) {
      md += "\n## Other findings\n";
      header = true;
    }
    md += fmt::format("\n### {} (`{}`, {})\n\n", f.title, f.id, severityName(f.severity));
    if (!f.rankReason.empty() || f.initiatingRank) rankLines(md, f);
    md += "\n";
    evidenceBlock(md, *this, f);
    details(md, f);
  }

  md += "\n## Run\n\n";
  md += fmt::format("- DeepSpeed: {} · PyTorch: {} · NCCL: {}\n", deepspeedVersion.value_or("not in the log"),
                    torchVersion.value_or("not in the log"), ncclVersion.value_or("not in the log"));
  md += fmt::format("- World size: {} · ranks with prefixed lines: {}\n",
                    worldSize ? std::to_string(*worldSize) : std::string("not in the log"),
                    ranksSeen.empty() ? std::string("none") : joinInts(ranksSeen));
  md += fmt::format("- Lines read: {} ({} bytes)\n", linesRead, bytesRead);
  if (!resolvedConfig.empty()) {
    md += "- Resolved config printed by DeepSpeed:";
    for (const auto& [key, value] : resolvedConfig) md += fmt::format(" `{}={}`", key, value);
    md += "\n";
  }

  if (!timeline.empty()) {
    md += "\n## Timeline\n\n";
    md += timelineSvg();
  }
  return md;
}

}  // namespace dsls::logs

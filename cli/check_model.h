// What `dsls check` found in one file, and over the whole run, as the reporters see it.
#pragma once

#include "analysis/core/finding.h"
#include "analysis/facade/document_kind.h"
#include "cli/text_locator.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace dsls::logs {
struct LogReport;
}

namespace dsls::cli {

struct FileReport {
  std::string path;  // as shown
  analysis::DocumentKind kind = analysis::DocumentKind::Other;
  std::vector<analysis::Finding> findings;  // in text order
  std::shared_ptr<const logs::LogReport> log;
  TextLocator positions{{}, {}};  // every offset the findings mention, and their first lines' text
  std::size_t fixed = 0;          // findings fixed by --fix (or that --diff would fix)
  bool written = false;           // --fix rewrote the file
};

struct Summary {
  std::size_t filesChecked = 0;
  std::size_t findings = 0;
  std::array<std::size_t, 4> bySeverity{};  // error, warning, information, hint
  std::size_t fixable = 0;                  // findings with a safe fix still to apply
  std::size_t fixed = 0;
  std::size_t filesWritten = 0;
  std::size_t skipped = 0;
  std::size_t gitignored = 0;  // untracked .json/.log/.txt files .gitignore excluded from the walk
  std::size_t errors = 0;
  analysis::Severity failOn = analysis::Severity::Warning;
  bool failed = false;  // a finding at or above failOn
};

inline bool hasSafeFix(const analysis::Finding& f) {
  for (const auto& fix : f.fixes)
    if (fix.safe && !fix.edits.empty()) return true;
  return false;
}

// The fix to show for a finding: the preferred one, else the first.
inline const analysis::Fix* shownFix(const analysis::Finding& f) {
  for (const auto& fix : f.fixes)
    if (fix.preferred) return &fix;
  return f.fixes.empty() ? nullptr : &f.fixes.front();
}

inline const char* kindName(analysis::DocumentKind k) {
  switch (k) {
    case analysis::DocumentKind::DsConfig: return "ds_config";
    case analysis::DocumentKind::Log: return "log";
    case analysis::DocumentKind::PythonConfig: return "python_config";
    case analysis::DocumentKind::ShellConfig: return "shell_config";
    case analysis::DocumentKind::AccelerateConfig: return "accelerate_config";
    case analysis::DocumentKind::Other: break;
  }
  return "other";
}

}  // namespace dsls::cli

// --fix and --diff: apply every safe fix until the text stops changing, and write files atomically.
#pragma once

#include "analysis/core/finding.h"
#include "analysis/facade/document_analysis.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::cli {

using FindingFilter = std::function<bool(const analysis::Finding&)>;

struct FixOutcome {
  std::string text;        // the text after the last pass
  std::size_t fixed = 0;   // findings whose fix was applied, over all passes
  std::shared_ptr<const analysis::DocumentAnalysis> analysis;  // of `text`, findings filtered
};

inline constexpr int kMaxFixPasses = 5;

// Analyses `text` as a ds_config and, when `applyFixes`, applies fixAll's merged safe edits of the findings that
// `keep` accepts, re-analysing after each pass (at most kMaxFixPasses). The returned analysis is
// of the final text, with only the kept findings.
FixOutcome analyzeAndFix(const std::string& name, std::string text, const analysis::Settings& settings,
                         const FindingFilter& keep, bool applyFixes);

// Applies non-overlapping edits (any order) to `text`.
std::string applyEdits(std::string_view text, std::vector<analysis::TextEdit> edits);

// Replaces the file at `path` (symlinks resolved) through a temporary file in the same folder and
// a rename, keeping the file's permission bits. False with `error` set on failure; the original
// file is then untouched.
bool writeFileAtomically(const std::string& path, std::string_view content, std::string& error);

}  // namespace dsls::cli

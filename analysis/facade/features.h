// Editor features over a DocumentAnalysis, for any kind of document.
#pragma once

#include "analysis/core/features.h"
#include "analysis/facade/document_analysis.h"

#include <optional>
#include <string>
#include <vector>

namespace dsls::analysis {

std::optional<HoverInfo> hoverAt(const DocumentAnalysis&, std::size_t offset);
// Actions for a selection: fixes of findings that overlap it, and fixes offered on a selected key.
std::vector<Action> actionsFor(const DocumentAnalysis&, TextRange selection, bool snippetsAllowed = false);
// Every safe fix at once, merged into one edit list (no overlapping edits).
std::optional<Action> fixAll(const DocumentAnalysis&);
std::vector<InlayHintInfo> inlayHints(const DocumentAnalysis&, TextRange visible);
std::vector<CompletionInfo> completeAt(const DocumentAnalysis&, std::size_t offset, bool snippetsAllowed);
std::vector<SymbolInfo> outline(const DocumentAnalysis&);
std::vector<LinkInfo> links(const DocumentAnalysis&);
// For a document analysed only in part because of its size (analysis/core/limits.h), the
// sentence that says so; empty otherwise.
std::string sizeNotice(const DocumentAnalysis&);

}  // namespace dsls::analysis

// Converts analysis results (byte offsets) to LSP JSON in the session's position encoding.
#pragma once

#include "analysis/core/finding.h"
#include "analysis/facade/features.h"
#include "protocol/line_index.h"
#include "protocol/lsp_types.h"

#include <functional>
#include <string>

namespace dsls::lsp {

struct Conversion {
  const protocol::LineIndex& lines;
  protocol::PositionEncoding encoding;
  const protocol::ClientCapabilities& caps;
  std::string uri;
  // Resolves a Related in another open document to that document's URI and line index; null
  // when the document is gone or its text is no longer the revision the Related was made on.
  std::function<const protocol::LineIndex*(const analysis::Related&, std::string& uri)> otherDocument;

  protocol::Range range(analysis::TextRange r) const;
  protocol::Json diagnostic(const analysis::Finding&) const;
  protocol::Json textEdit(const analysis::TextEdit&) const;
  protocol::Json workspaceEdit(const std::vector<analysis::TextEdit>&, std::int64_t version) const;

  // Feature results, shaped for what the client said it supports.
  protocol::Json markup(const std::string& markdown) const;
  protocol::Json hover(const analysis::HoverInfo&) const;
  // A CodeAction literal, or a Command that applies the edit for clients without literal support.
  // `diagnostics` are the ones it resolves, already converted.
  protocol::Json codeAction(const analysis::Action&, protocol::Json diagnostics, std::int64_t version) const;
  protocol::Json completionItem(const analysis::CompletionInfo&) const;
  protocol::Json inlayHint(const analysis::InlayHintInfo&) const;
  // DocumentSymbol trees, or flat SymbolInformation for clients without hierarchical support.
  protocol::Json documentSymbols(const std::vector<analysis::SymbolInfo>&) const;
  protocol::Json documentLink(const analysis::LinkInfo&) const;
};

// The code action kind of an analysis action ("quickfix", "source.fixAll.dsls", ...).
std::string_view codeActionKind(analysis::Action::Kind);

// The command that applies a fix for clients without code action literals.
inline constexpr std::string_view kApplyEditCommand = "dsls.applyEdit";

}  // namespace dsls::lsp

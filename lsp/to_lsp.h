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
  // Resolves Related::document names (other open documents) to their URI and line index.
  std::function<const protocol::LineIndex*(const std::string& document, std::string& uri)> otherDocument;

  protocol::Range range(analysis::TextRange r) const;
  protocol::Json diagnostic(const analysis::Finding&) const;
  protocol::Json textEdit(const analysis::TextEdit&) const;
  protocol::Json workspaceEdit(const std::vector<analysis::TextEdit>&, std::int64_t version) const;
};

// Where a rule's documentation lives (a file:// URI of the docs folder shipped with dsls).
std::string ruleDocsUri(const std::string& code);

}  // namespace dsls::lsp

// Editor features as plain data with byte offsets. The server converts them to LSP;
// nothing here knows the protocol.
#pragma once

#include "analysis/core/finding.h"

#include <string>
#include <vector>

namespace dsls::analysis {

struct HoverInfo {
  std::string markdown;
  TextRange range;
};

struct Action {
  std::string title;
  enum class Kind { QuickFix, FixAll, Refactor } kind = Kind::QuickFix;
  std::vector<TextEdit> edits;
  bool preferred = false;
  std::vector<std::size_t> findings;  // indices into DocumentAnalysis::findings it resolves
};

struct InlayHintInfo {
  std::size_t offset = 0;
  std::string label;
  std::string tooltip;
};

struct CompletionInfo {
  enum class Kind { Key, Value, Snippet } kind = Kind::Key;
  std::string label;
  std::string detail;
  std::string documentation;  // markdown
  std::string insertText;
  bool isSnippet = false;  // insertText uses ${1:...} placeholders
  TextRange replace;       // what the item replaces
  std::string sortText;
  bool deprecated = false;
};

struct SymbolInfo {
  std::string name;
  std::string detail;
  enum class Kind { Object, Array, Boolean, Number, String, Null } kind = Kind::Object;
  TextRange range, selection;
  std::vector<SymbolInfo> children;
};

struct LinkInfo {
  TextRange range;
  std::string target;  // https:// or file path
  std::string tooltip;
};

}  // namespace dsls::analysis

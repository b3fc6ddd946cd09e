// One open document: its text as the client sees it, and positions in the session's encoding.
#pragma once

#include "protocol/line_index.h"
#include "protocol/lsp_types.h"

#include <cstdint>
#include <memory>
#include <string>

namespace dsls::lsp {

class Document {
 public:
  Document(std::string uri, std::string languageId, std::int64_t version, std::string text);
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  const std::string& uri() const { return uri_; }
  const std::string& languageId() const { return languageId_; }
  const std::string& text() const { return *text_; }
  // The same text, shared: an analysis keeps it without a copy, and an edit made while one
  // holds it replaces the text rather than changing it under the analysis.
  std::shared_ptr<const std::string> sharedText() const { return text_; }
  std::int64_t version() const { return version_; }
  // Bumps on every edit; analysis results carry the revision they were computed for.
  std::uint64_t revision() const { return revision_; }
  const protocol::LineIndex& lines() const { return lines_; }

  // Applies one content change, or leaves the text unchanged and says why it cannot: a range
  // on a line past the last one, or starting after it ends. A character past its line's end
  // is the line's end, as the protocol says.
  std::string apply(protocol::ContentChange change, protocol::PositionEncoding encoding);
  void setVersion(std::int64_t version) { version_ = version; }

 private:
  void reindex();

  std::string uri_, languageId_;
  std::int64_t version_;
  std::uint64_t revision_ = 1;
  std::shared_ptr<std::string> text_;
  protocol::LineIndex lines_;
};

}  // namespace dsls::lsp

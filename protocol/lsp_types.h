// The subset of LSP types dsls uses, as plain structs with nlohmann conversions.
// Client capabilities are flattened into the booleans the server acts on (as clangd does).
#pragma once

#include "protocol/jsonrpc.h"
#include "protocol/line_index.h"

#include <optional>
#include <string>
#include <vector>

namespace dsls::protocol {

struct Range {
  Position start;
  Position end;
};

void to_json(Json&, const Position&);
void from_json(const Json&, Position&);
void to_json(Json&, const Range&);
void from_json(const Json&, Range&);

struct ContentChange {
  std::optional<Range> range;  // absent: the whole document
  std::string text;
};
void from_json(const Json&, ContentChange&);

struct ClientCapabilities {
  PositionEncoding encoding = PositionEncoding::Utf16;  // the one chosen for this session
  bool pullDiagnostics = false;
  bool diagnosticRefresh = false;
  bool relatedInformation = false;
  bool hoverMarkdown = false;
  bool completionSnippets = false;
  bool completionDocumentationMarkdown = false;
  bool codeActionLiterals = false;
  bool inlayHintRefresh = false;
  bool workspaceConfiguration = false;
  bool didChangeConfigurationDynamic = false;
  bool didChangeWatchedFilesDynamic = false;
  bool hierarchicalSymbols = false;
  bool workDoneProgress = false;  // window/workDoneProgress/create and $/progress
};

// Reads the capabilities from initialize params; picks utf-8 when offered, else utf-16
// (and utf-32 only when it is the client's sole offer).
ClientCapabilities parseClientCapabilities(const Json& initializeParams);

// Serialises for the wire; invalid UTF-8 inside strings is replaced, never thrown on.
std::string serialize(const Json&);

}  // namespace dsls::protocol

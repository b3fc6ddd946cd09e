#include "protocol/lsp_types.h"

#include <algorithm>

namespace dsls::protocol {

void to_json(Json& j, const Position& p) { j = Json{{"line", p.line}, {"character", p.character}}; }

void from_json(const Json& j, Position& p) {
  // Negative or fractional numbers are invalid params; nlohmann throws type_error, caught by the dispatcher.
  auto line = j.at("line").get<std::int64_t>();
  auto character = j.at("character").get<std::int64_t>();
  if (line < 0 || character < 0) throw std::invalid_argument("position with a negative line or character");
  p.line = static_cast<std::uint32_t>(std::min<std::int64_t>(line, UINT32_MAX));
  p.character = static_cast<std::uint32_t>(std::min<std::int64_t>(character, UINT32_MAX));
}

void to_json(Json& j, const Range& r) { j = Json{{"start", r.start}, {"end", r.end}}; }

void from_json(const Json& j, Range& r) {
  r.start = j.at("start").get<Position>();
  r.end = j.at("end").get<Position>();
}

void from_json(const Json& j, ContentChange& c) {
  if (auto r = j.find("range"); r != j.end() && !r->is_null()) c.range = r->get<Range>();
  c.text = j.at("text").get<std::string>();
}

namespace {

// The value at `path` (object keys), or nullptr when a step is missing or not an object.
const Json* at(const Json& root, std::initializer_list<const char*> path) {
  const Json* cur = &root;
  for (const char* key : path) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(key);
    if (it == cur->end()) return nullptr;
    cur = &*it;
  }
  return cur;
}

bool flag(const Json& root, std::initializer_list<const char*> path) {
  const Json* value = at(root, path);
  if (!value) return false;
  return value->is_boolean() ? value->get<bool>() : !value->is_null();
}

bool contains(const Json& root, std::initializer_list<const char*> path, std::string_view value) {
  const Json* list = at(root, path);
  if (!list || !list->is_array()) return false;
  return std::any_of(list->begin(), list->end(), [&](const Json& v) { return v.is_string() && v == value; });
}

}  // namespace

ClientCapabilities parseClientCapabilities(const Json& params) {
  ClientCapabilities c;
  if (!params.is_object()) return c;
  const Json caps = params.value("capabilities", Json::object());
  if (!caps.is_object()) return c;

  if (contains(caps, {"general", "positionEncodings"}, "utf-8")) c.encoding = PositionEncoding::Utf8;
  else if (contains(caps, {"general", "positionEncodings"}, "utf-16")) c.encoding = PositionEncoding::Utf16;
  else if (contains(caps, {"general", "positionEncodings"}, "utf-32")) c.encoding = PositionEncoding::Utf32;

  c.pullDiagnostics = flag(caps, {"textDocument", "diagnostic"});
  c.diagnosticRefresh = flag(caps, {"workspace", "diagnostics", "refreshSupport"});
  c.relatedInformation = flag(caps, {"textDocument", "publishDiagnostics", "relatedInformation"}) || c.pullDiagnostics;
  c.hoverMarkdown = contains(caps, {"textDocument", "hover", "contentFormat"}, "markdown");
  c.completionSnippets = flag(caps, {"textDocument", "completion", "completionItem", "snippetSupport"});
  c.completionDocumentationMarkdown =
      contains(caps, {"textDocument", "completion", "completionItem", "documentationFormat"}, "markdown");
  c.codeActionLiterals = flag(caps, {"textDocument", "codeAction", "codeActionLiteralSupport"});
  c.inlayHintRefresh = flag(caps, {"workspace", "inlayHint", "refreshSupport"});
  c.workspaceConfiguration = flag(caps, {"workspace", "configuration"});
  c.didChangeConfigurationDynamic = flag(caps, {"workspace", "didChangeConfiguration", "dynamicRegistration"});
  c.didChangeWatchedFilesDynamic = flag(caps, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"});
  c.hierarchicalSymbols = flag(caps, {"textDocument", "documentSymbol", "hierarchicalDocumentSymbolSupport"});
  c.workDoneProgress = flag(caps, {"window", "workDoneProgress"});
  return c;
}

std::string serialize(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace dsls::protocol

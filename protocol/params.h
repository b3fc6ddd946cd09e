// The params of the requests and notifications dsls reads, as typed structs. Parsing names
// the JSON path of the first problem ("params.position.line: expected a non-negative
// integer"), which the dispatcher turns into an InvalidParams (-32602) error.
#pragma once

#include "protocol/lsp_types.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::protocol {

struct ParamError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A view of one JSON value and the path that leads to it.
class ParamReader {
 public:
  explicit ParamReader(const Json& value, std::string path = "params") : value_(&value), path_(std::move(path)) {}

  ParamReader field(std::string_view key) const;  // required member
  std::optional<ParamReader> optionalField(std::string_view key) const;  // absent or null: nullopt
  ParamReader element(std::size_t i) const;

  std::string string() const;
  std::int64_t integer() const;
  Position position() const;
  Range range() const;
  std::vector<std::string> strings() const;
  const Json& json() const { return *value_; }
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(std::string_view expected) const;

 private:
  const Json* value_;
  std::string path_;
};

struct DocumentParams {  // textDocument/documentSymbol, documentLink, didSave, didClose
  std::string uri;
};
struct PositionParams {  // textDocument/hover, completion
  std::string uri;
  Position position;
};
struct RangeParams {  // textDocument/inlayHint
  std::string uri;
  Range range;
};
struct CodeActionParams {
  std::string uri;
  Range range;
  std::vector<std::string> only;  // empty: every kind
};
struct DocumentDiagnosticParams {
  std::string uri;
  std::string previousResultId;
};
struct ExecuteCommandParams {
  std::string command;
  Json arguments = Json::array();
  std::optional<Json> workDoneToken;  // the client's progress token (an integer or a string)
};
struct DidOpenParams {
  std::string uri, languageId, text;
  std::int64_t version = 0;
};
struct DidChangeParams {
  std::string uri;
  std::optional<std::int64_t> version;
  std::vector<ContentChange> changes;
};

void parse(const ParamReader&, DocumentParams&);
void parse(const ParamReader&, PositionParams&);
void parse(const ParamReader&, RangeParams&);
void parse(const ParamReader&, CodeActionParams&);
void parse(const ParamReader&, DocumentDiagnosticParams&);
void parse(const ParamReader&, ExecuteCommandParams&);
void parse(const ParamReader&, DidOpenParams&);
void parse(const ParamReader&, DidChangeParams&);

template <typename P>
P parseParams(const Json& params) {
  P out;
  parse(ParamReader(params), out);
  return out;
}

// As parseParams, from params the caller gives up: a document's text moves out of them
// instead of being copied (a didOpen can carry tens of MB).
template <typename P>
P takeParams(Json&& params) {
  return parseParams<P>(params);
}
template <>
DidOpenParams takeParams<DidOpenParams>(Json&& params);
template <>
DidChangeParams takeParams<DidChangeParams>(Json&& params);

}  // namespace dsls::protocol

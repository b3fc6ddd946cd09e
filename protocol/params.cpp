#include "protocol/params.h"

#include <algorithm>
#include <limits>

namespace dsls::protocol {

namespace {

std::uint32_t coordinate(const ParamReader& r) {
  std::int64_t v = r.integer();
  if (v < 0) r.fail("a non-negative integer");
  // Past-the-end coordinates are clamped later, by the line index.
  return static_cast<std::uint32_t>(std::min<std::int64_t>(v, std::numeric_limits<std::uint32_t>::max()));
}

std::string documentUri(const ParamReader& params) { return params.field("textDocument").field("uri").string(); }

// Moves the string member "text" out of `holder` (left an empty string), if there is one.
std::string takeText(Json& holder) {
  if (!holder.is_object()) return {};
  auto it = holder.find("text");
  if (it == holder.end() || !it->is_string()) return {};
  return std::move(it->get_ref<std::string&>());
}

}  // namespace

void ParamReader::fail(std::string_view expected) const {
  throw ParamError(path_ + ": expected " + std::string(expected) + ", got " +
                   (value_->is_null() ? std::string("null") : value_->dump().substr(0, 60)));
}

ParamReader ParamReader::field(std::string_view key) const {
  if (!value_->is_object()) fail("an object");
  auto it = value_->find(key);
  if (it == value_->end()) throw ParamError(path_ + "." + std::string(key) + ": missing");
  return ParamReader(*it, path_ + "." + std::string(key));
}

std::optional<ParamReader> ParamReader::optionalField(std::string_view key) const {
  if (!value_->is_object()) fail("an object");
  auto it = value_->find(key);
  if (it == value_->end() || it->is_null()) return std::nullopt;
  return ParamReader(*it, path_ + "." + std::string(key));
}

ParamReader ParamReader::element(std::size_t i) const {
  if (!value_->is_array() || i >= value_->size()) fail("an array of at least " + std::to_string(i + 1) + " elements");
  return ParamReader((*value_)[i], path_ + "[" + std::to_string(i) + "]");
}

std::string ParamReader::string() const {
  if (!value_->is_string()) fail("a string");
  return value_->get<std::string>();
}

std::int64_t ParamReader::integer() const {
  if (!value_->is_number_integer()) fail("an integer");
  if (value_->is_number_unsigned() && value_->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
    return std::numeric_limits<std::int64_t>::max();
  return value_->get<std::int64_t>();
}

Position ParamReader::position() const { return Position{coordinate(field("line")), coordinate(field("character"))}; }

Range ParamReader::range() const { return Range{field("start").position(), field("end").position()}; }

std::vector<std::string> ParamReader::strings() const {
  if (!value_->is_array()) fail("an array of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value_->size(); ++i) out.push_back(element(i).string());
  return out;
}

void parse(const ParamReader& r, DocumentParams& p) { p.uri = documentUri(r); }

void parse(const ParamReader& r, PositionParams& p) {
  p.uri = documentUri(r);
  p.position = r.field("position").position();
}

void parse(const ParamReader& r, RangeParams& p) {
  p.uri = documentUri(r);
  p.range = r.field("range").range();
}

void parse(const ParamReader& r, CodeActionParams& p) {
  p.uri = documentUri(r);
  p.range = r.field("range").range();
  if (auto context = r.optionalField("context"))
    if (auto only = context->optionalField("only")) p.only = only->strings();
}

void parse(const ParamReader& r, DocumentDiagnosticParams& p) {
  p.uri = documentUri(r);
  if (auto previous = r.optionalField("previousResultId")) p.previousResultId = previous->string();
}

void parse(const ParamReader& r, ExecuteCommandParams& p) {
  p.command = r.field("command").string();
  if (auto args = r.optionalField("arguments")) {
    if (!args->json().is_array()) args->fail("an array");
    p.arguments = args->json();
  }
  if (auto token = r.optionalField("workDoneToken")) {
    if (!token->json().is_string() && !token->json().is_number_integer()) token->fail("an integer or a string");
    p.workDoneToken = token->json();
  }
}

void parse(const ParamReader& r, DidOpenParams& p) {
  ParamReader td = r.field("textDocument");
  p.uri = td.field("uri").string();
  p.text = td.field("text").string();
  if (auto language = td.optionalField("languageId")) p.languageId = language->string();
  // A malformed version is ignored rather than losing the document.
  if (auto version = td.optionalField("version"); version && version->json().is_number_integer())
    p.version = version->integer();
}

void parse(const ParamReader& r, DidChangeParams& p) {
  ParamReader td = r.field("textDocument");
  p.uri = td.field("uri").string();
  if (auto version = td.optionalField("version"); version && version->json().is_number_integer())
    p.version = version->integer();
  ParamReader changes = r.field("contentChanges");
  if (!changes.json().is_array()) changes.fail("an array");
  for (std::size_t i = 0; i < changes.json().size(); ++i) {
    ParamReader change = changes.element(i);
    ContentChange c;
    if (auto range = change.optionalField("range")) c.range = range->range();
    c.text = change.field("text").string();
    p.changes.push_back(std::move(c));
  }
}

template <>
DidOpenParams takeParams<DidOpenParams>(Json&& params) {
  std::string text;
  if (params.is_object())
    if (auto td = params.find("textDocument"); td != params.end()) text = takeText(*td);
  DidOpenParams p = parseParams<DidOpenParams>(params);
  p.text = std::move(text);
  return p;
}

template <>
DidChangeParams takeParams<DidChangeParams>(Json&& params) {
  std::vector<std::string> texts;
  if (params.is_object())
    if (auto changes = params.find("contentChanges"); changes != params.end() && changes->is_array())
      for (Json& change : *changes) texts.push_back(takeText(change));
  DidChangeParams p = parseParams<DidChangeParams>(params);
  // parse() keeps every change, in order, or throws.
  for (std::size_t i = 0; i < p.changes.size() && i < texts.size(); ++i) p.changes[i].text = std::move(texts[i]);
  return p;
}

}  // namespace dsls::protocol

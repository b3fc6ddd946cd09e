#include "analysis/python/projection.h"

#include "analysis/embedded/node_text.h"
#include "analysis/python/literals.h"

#include <algorithm>
#include <cctype>

namespace dsls::python {
namespace {

using namespace embedded;

using analysis::TextRange;

// Deeper nesting than any config has is written as one unknown value: bounded work, no deep recursion.
constexpr int kMaxDepth = 32;
constexpr std::size_t kMaxPlaceholderName = 40;

class Projector {
 public:
  Projector(std::string_view source, TSNode scope) : source_(source), scope_(scope) {
    out_.dict.map = SourceMap(pythonSpelling);
  }

  Projection run(TSNode dict) {
    value(dict, 0);
    out_.dict.source = nodeRange(dict);
    return std::move(out_);
  }

 private:
  void token(std::string_view json, TextRange source) {
    const std::size_t begin = out_.dict.json.size();
    out_.dict.json += json;
    out_.dict.map.add({begin, out_.dict.json.size()}, source);
  }
  void punct(std::string_view json) { out_.dict.json += json; }

  void value(TSNode n, int depth);
  void object(TSNode n, int depth);
  void array(TSNode n, int depth);
  void member(std::string_view key, TextRange keyRange, TSNode value, int depth, bool& first);
  bool scalar(TSNode n);
  void unknown(TSNode n);
  bool inlineName(TSNode name, int depth);

  std::string_view source_;
  TSNode scope_;  // the function (or module) whose assignments a name may be read from
  Projection out_;
};

void Projector::value(TSNode n, int depth) {
  while (isType(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
  if (depth > kMaxDepth) return unknown(n);
  if (isType(n, "dictionary") || isDictCall(source_, n)) return object(n, depth);
  if (isType(n, "list") || isType(n, "tuple")) return array(n, depth);
  if (isType(n, "identifier") && inlineName(n, depth)) return;
  if (!scalar(n)) unknown(n);
}

bool Projector::scalar(TSNode n) {
  const std::string_view text = nodeText(source_, n);
  std::optional<std::string> json;
  if (isType(n, "true")) json = "true";
  else if (isType(n, "false")) json = "false";
  else if (isType(n, "none")) json = "null";
  else if (isType(n, "integer") || isType(n, "float")) json = jsonNumber(text);
  else if (isType(n, "unary_operator") && text.starts_with('-')) {
    TSNode operand = field(n, "argument");
    if (isType(operand, "integer") || isType(operand, "float"))
      if (auto number = jsonNumber(nodeText(source_, operand)); number && !number->starts_with('-')) json = std::string("-").append(*number);
  } else if (isType(n, "string")) json = jsonString(text);
  if (!json) return false;
  token(*json, nodeRange(n));
  return true;
}

// "${stage}", "${args.zero_stage}": a placeholder the JSON parser reads as one unknown value.
void Projector::unknown(TSNode n) {
  std::string name;
  for (char c : nodeText(source_, n)) {
    if (name.size() >= kMaxPlaceholderName) break;
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    if (keep) name += c;
    else if (!name.empty() && name.back() != '_') name += '_';
  }
  if (name.empty()) name = "value";
  token(std::string("${").append(name).append("}"), nodeRange(n));
}

void Projector::member(std::string_view key, TextRange keyRange, TSNode v, int depth, bool& first) {
  if (!first) punct(", ");
  first = false;
  token(key, keyRange);
  punct(": ");
  value(v, depth + 1);
}

void Projector::object(TSNode n, int depth) {
  const bool call = !isType(n, "dictionary");
  TSNode items = call ? field(n, "arguments") : n;
  const TextRange range = nodeRange(n);
  token("{", {range.begin, range.begin + 1});
  bool first = true;
  const std::uint32_t count = ts_node_named_child_count(items);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode item = ts_node_named_child(items, i);
    if (!call && isType(item, "pair")) {
      TSNode key = field(item, "key");
      auto spelt = isType(key, "string") ? jsonString(nodeText(source_, key)) : std::nullopt;
      if (spelt) member(*spelt, nodeRange(key), field(item, "value"), depth, first);
    } else if (call && isType(item, "keyword_argument")) {
      TSNode name = field(item, "name");
      member(std::string("\"").append(nodeText(source_, name)).append("\""), nodeRange(name), field(item, "value"), depth, first);
    }
    // A **splat, a computed key or a positional argument adds keys dsls cannot read: left out.
  }
  token("}", {range.end - 1, range.end});
}

void Projector::array(TSNode n, int depth) {
  const TextRange range = nodeRange(n);
  token("[", {range.begin, range.begin + 1});
  const std::uint32_t count = ts_node_named_child_count(n);
  bool first = true;
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode item = ts_node_named_child(n, i);
    if (isType(item, "comment")) continue;
    if (!first) punct(", ");
    first = false;
    value(item, depth + 1);
  }
  token("]", {range.end - 1, range.end});
}

// The last `name = {...}` of the scope before `use`, at any depth of its blocks but not in a
// nested function or class.
TSNode lastDictAssignment(std::string_view source, TSNode scope, TSNode use) {
  TSNode found{};
  const std::string_view name = nodeText(source, use);
  forEachNamedNode(scope, [&](TSNode n) {
    if (ts_node_start_byte(n) >= ts_node_start_byte(use)) return false;
    if (isType(n, "assignment")) {
      TSNode left = field(n, "left"), right = field(n, "right");
      if (isType(left, "identifier") && nodeText(source, left) == name &&
          (isType(right, "dictionary") || isDictCall(source, right)) && ts_node_end_byte(right) <= ts_node_start_byte(use) &&
          (ts_node_is_null(found) || ts_node_start_byte(right) > ts_node_start_byte(found)))
        found = right;
      return false;
    }
    const bool nested = !ts_node_eq(n, scope) && (isType(n, "function_definition") || isType(n, "class_definition"));
    return !nested;
  });
  return found;
}

bool Projector::inlineName(TSNode name, int depth) {
  TSNode dict = lastDictAssignment(source_, scope_, name);
  if (ts_node_is_null(dict)) return false;
  out_.inlined.push_back(nodeRange(dict));
  value(dict, depth + 4);  // each inlining counts more towards the depth bound: a = {"k": a} ends
  return true;
}

TSNode enclosingScope(TSNode n) {
  TSNode scope = n;
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    scope = p;
    if (isType(p, "function_definition")) break;
  }
  return scope;
}

}  // namespace

bool isDictCall(std::string_view source, TSNode node) {
  return isType(node, "call") && isType(field(node, "function"), "identifier") &&
         nodeText(source, field(node, "function")) == "dict";
}

Projection projectDict(std::string_view source, TSNode dict) { return Projector(source, enclosingScope(dict)).run(dict); }

}  // namespace dsls::python

#include "analysis/shell/projection.h"

#include "analysis/embedded/node_text.h"

#include <algorithm>

namespace dsls::shell {
namespace {

using analysis::TextRange;
using embedded::isType;
using embedded::nodeRange;
using embedded::nodeText;
using embedded::Segment;

constexpr std::size_t kMaxPlaceholderText = 40;

bool isExpansion(TSNode n) {
  return isType(n, "simple_expansion") || isType(n, "expansion") || isType(n, "command_substitution") ||
         isType(n, "arithmetic_expansion");
}

// "${text}", built by appends (g++ 12 warns falsely on "${" + std::string(...) at -O2).
std::string braced(std::string_view text) {
  std::string out = "${";
  out.append(text);
  out += '}';
  return out;
}

// "${NAME}" for a variable, "${...}" with the expression's own text (no braces, one line, short)
// for anything else: a placeholder the JSON parser reads as one unknown value.
std::string placeholder(std::string_view text) {
  std::string inner;
  for (char c : text) {
    if (c == '{' || c == '}' || c == '$' || c == '"') continue;
    if (c == '\n' || c == '\t') c = ' ';
    if (inner.size() < kMaxPlaceholderText) inner += c;
  }
  return braced(inner);
}

class Projector {
 public:
  Projector(std::string_view source, const ScriptValues& values) : source_(source), values_(values) {}

  embedded::EmbeddedConfig run(TSNode body) {
    TextRange range = nodeRange(body);
    const bool quoted = isType(body, "raw_string") || isType(body, "string");
    if (quoted && range.end - range.begin >= 2) range = {range.begin + 1, range.end - 1};
    out_.source = range;
    const bool doubleQuoted = isType(body, "string");
    std::size_t at = range.begin;
    for (std::uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
      TSNode child = ts_node_named_child(body, i);
      if (!isExpansion(child)) continue;
      text({at, ts_node_start_byte(child)}, doubleQuoted);
      expansion(child);
      at = ts_node_end_byte(child);
    }
    text({at, range.end}, doubleQuoted);
    return std::move(out_);
  }

 private:
  void piece(std::string_view json, TextRange source, bool verbatim, bool editable) {
    const std::size_t begin = out_.json.size();
    out_.json += json;
    out_.map.add(Segment{{begin, out_.json.size()}, source, verbatim, editable});
  }

  // Text between expansions, as it is; in a double-quoted string, \" \\ \$ \` are one character.
  void text(TextRange r, bool doubleQuoted) {
    std::size_t run = r.begin;
    for (std::size_t i = r.begin; i < r.end; ++i) {
      const char c = source_[i];
      if (doubleQuoted && c == '\\' && i + 1 < r.end && std::string_view("\"\\$`").find(source_[i + 1]) != std::string_view::npos) {
        verbatim({run, i});
        piece(source_.substr(i + 1, 1), {i, i + 2}, false, false);
        track(source_[i + 1]);
        run = ++i + 1;
        continue;
      }
      track(c);
    }
    verbatim({run, r.end});
  }

  void verbatim(TextRange r) {
    if (r.end > r.begin) piece(source_.substr(r.begin, r.end - r.begin), r, true, true);
  }

  // Whether the JSON written so far is inside a string: an expansion there is part of the string.
  void track(char c) {
    if (escaped_) escaped_ = false;
    else if (inString_ && c == '\\') escaped_ = true;
    else if (c == '"') inString_ = !inString_;
  }

  // In a JSON string a variable's plain word is written in ("$OFFLOAD_DEVICE" -> "none"), else
  // the expansion stays as written; as a value, its JSON literal, else a placeholder.
  void expansion(TSNode n) {
    const std::string_view text = nodeText(source_, n);
    std::optional<std::string> word = wordOf(n, text);
    if (inString_) return piece(word ? *word : text, nodeRange(n), !word, false);
    if (auto literal = word ? jsonLiteral(*word) : std::nullopt) return piece(*literal, nodeRange(n), false, false);
    piece(placeholderOf(n, text), nodeRange(n), false, false);
  }

  // The script's word for a variable, or its expansion's default.
  std::optional<std::string> wordOf(TSNode n, std::string_view text) const {
    if (!isType(n, "simple_expansion") && !isType(n, "expansion")) return std::nullopt;
    auto defaulted = defaultedExpansion(text);
    const std::string_view name = defaulted ? defaulted->name : nodeText(source_, ts_node_named_child(n, 0));
    if (auto v = values_.word(name)) return v;
    if (defaulted) return defaulted->word;
    return std::nullopt;
  }

  std::string placeholderOf(TSNode n, std::string_view text) const {
    const std::string_view name = nodeText(source_, ts_node_named_child(n, 0));
    const bool plainName = isType(ts_node_named_child(n, 0), "variable_name") &&
                           ((text.starts_with('$') && text.substr(1) == name) || text == braced(name));
    return plainName ? braced(name) : placeholder(text);
  }

  std::string_view source_;
  const ScriptValues& values_;
  embedded::EmbeddedConfig out_;
  bool inString_ = false;
  bool escaped_ = false;
};

}  // namespace

embedded::EmbeddedConfig projectJson(std::string_view source, TSNode body, const ScriptValues& values) {
  return Projector(source, values).run(body);
}

}  // namespace dsls::shell

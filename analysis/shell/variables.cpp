#include "analysis/shell/variables.h"

#include "analysis/embedded/node_text.h"
#include "analysis/embedded/number_text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace dsls::shell {
namespace {

using embedded::field;
using embedded::isType;
using embedded::nodeText;


std::string_view unquoted(std::string_view word) {
  if (word.size() >= 2 && (word.front() == '"' || word.front() == '\'') && word.back() == word.front())
    return word.substr(1, word.size() - 2);
  return word;
}

}  // namespace

std::optional<std::string> jsonLiteral(std::string_view word) {
  const std::string_view s = unquoted(word);
  if (s == "true" || s == "false" || embedded::isJsonNumberText(s)) return std::string(s);
  return std::nullopt;
}

std::optional<std::string> plainWord(std::string_view word) {
  const std::string_view s = unquoted(word);
  const bool plain = std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_.-/:+").find(c) != std::string_view::npos;
  });
  if (!plain) return std::nullopt;
  return std::string(s);
}

std::optional<DefaultedName> defaultedExpansion(std::string_view text) {
  if (!text.starts_with("${") || !text.ends_with("}")) return std::nullopt;
  const std::string_view inner = text.substr(2, text.size() - 3);
  static constexpr std::array<std::string_view, 4> kOperators = {":-", ":=", "-", "="};
  std::size_t nameEnd = 0;
  while (nameEnd < inner.size() && (std::isalnum(static_cast<unsigned char>(inner[nameEnd])) || inner[nameEnd] == '_'))
    ++nameEnd;
  if (nameEnd == 0) return std::nullopt;
  const std::string_view rest = inner.substr(nameEnd);
  for (std::string_view op : kOperators)
    if (rest.starts_with(op)) return DefaultedName{inner.substr(0, nameEnd), plainWord(rest.substr(op.size()))};
  return std::nullopt;
}

ScriptValues::ScriptValues(std::string_view source, TSNode root) {
  embedded::forEachNamedNode(root, [&](TSNode n) {
    if (isType(n, "variable_assignment")) {
      const std::string_view name = nodeText(source, field(n, "name"));
      const std::string_view value = nodeText(source, field(n, "value"));
      // NAME=${NAME:-2}: the default is the value the script runs with unless the caller sets one.
      auto defaulted = defaultedExpansion(value);
      if (defaulted && defaulted->name == name) assign(name, defaulted->word);
      else assign(name, plainWord(value));
    } else if (isType(n, "for_statement")) {
      assign(nodeText(source, field(n, "variable")), std::nullopt);  // one value per iteration
    }
    return true;
  });
}

void ScriptValues::assign(std::string_view name, std::optional<std::string> value) {
  if (name.empty()) return;
  auto it = values_.find(name);
  if (it == values_.end()) values_.emplace(std::string(name), std::move(value));
  else if (it->second != value) it->second = std::nullopt;
}

std::optional<std::string> ScriptValues::word(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::nullopt : it->second;
}

}  // namespace dsls::shell

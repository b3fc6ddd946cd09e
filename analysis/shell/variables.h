// What a shell script assigns to its variables, as far as a literal says: the value a heredoc's
// $NAME stands for when the script leaves no doubt.
#pragma once

#include <tree_sitter/api.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace dsls::shell {

class ScriptValues {
 public:
  ScriptValues(std::string_view source, TSNode root);
  // The plain word (letters, digits, _ . - / :) every assignment of `name` gives it, quotes
  // removed: what "$OFFLOAD_DEVICE" in a JSON string becomes, or "2" for $ZERO_STAGE. None when
  // one assignment is not a plain word, two disagree, or the script never assigns it.
  std::optional<std::string> word(std::string_view name) const;

 private:
  void assign(std::string_view name, std::optional<std::string> value);
  // name -> its plain word, or none once an assignment made it unknown
  std::map<std::string, std::optional<std::string>, std::less<>> values_;
};

// A word's text as a JSON number or true/false, when it is one (quotes removed: "2" is 2 to a heredoc).
std::optional<std::string> jsonLiteral(std::string_view word);
// A word's text, quotes removed, when it is a plain word (nothing the shell would expand).
std::optional<std::string> plainWord(std::string_view word);

// The default of ${NAME:-default}, ${NAME-default}, ${NAME:=default} or ${NAME=default}, as a
// plain word, and the name; none for other expansions.
struct DefaultedName {
  std::string_view name;
  std::optional<std::string> word;
};
std::optional<DefaultedName> defaultedExpansion(std::string_view text);

}  // namespace dsls::shell

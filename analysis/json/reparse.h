// Reuse of a parsed document after an edit inside one scalar value.
//
// Typing in a value (a number, a string, true, false or null) changes one token. The new text's
// document is then the old one with that value read again and every later offset moved by the
// edit's length: a copy of the tree, with no lexing or parsing of the rest. Blanks added or
// removed between the tokens of a document without errors (a new line, an indent) change no token
// and are reused the same way. Any other edit (in a key, in punctuation or comments, one that
// changes what kind of token it is or that brings or touches a syntax error) gets no reuse, and
// the caller parses the new text.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "analysis/json/document.h"

namespace dsls::json {

// Where two texts differ: the old text's [begin, oldEnd) became the new text's [begin, newEnd);
// what comes before and after is the same in both.
struct ChangedRegion {
  std::size_t begin = 0, oldEnd = 0, newEnd = 0;
};
ChangedRegion changedRegion(std::string_view oldText, std::string_view newText);

// `old` is parse(oldText, options). When the texts differ inside one scalar value, or not at all,
// returns what parse(newText, options) returns; otherwise nullopt. Throws analysis::Cancelled
// when options.cancel is requested.
std::optional<Document> reparseAfterEdit(const Document& old, std::string_view oldText, std::string_view newText,
                                         const ParseOptions& options = {});

}  // namespace dsls::json

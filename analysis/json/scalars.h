// Decoding of string and number tokens.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analysis/json/error_sink.h"
#include "analysis/json/lexer.h"

namespace dsls::json {

// The value of a String token (its text includes the quotes). Reports invalid
// escapes and raw control characters; invalid UTF-8 becomes U+FFFD so decoded
// text is always valid UTF-8.
std::string decodeString(std::string_view text, const Token& token, ErrorSink& errors);
// The contents of a closed string token that decoding would leave as they are (the lexer
// found printable ASCII and no escape), or nullopt: most keys and values need no decoding.
std::optional<std::string_view> plainString(std::string_view text, const Token& token);

// Parses `word` if it follows the JSON number grammar exactly. Values beyond the
// range of a double become +-infinity or 0.
bool parseNumber(std::string_view word, double& value);

// Reads a Word token's text as true, false, null or a number: sets `n`'s kind and value and
// returns true, or returns false: the text is no JSON value.
bool readLiteral(std::string_view word, Node& n);

}  // namespace dsls::json

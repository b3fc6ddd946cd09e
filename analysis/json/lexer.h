// Splits JSON text into tokens, skipping blanks and recording comments. Text that
// is neither punctuation nor a quoted string becomes a Word token (true, 12.5e3,
// or unquoted junk) so the parser can judge it in context.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "analysis/core/finding.h"
#include "analysis/json/error_sink.h"

namespace dsls::json {

enum class TokenType { LBrace, RBrace, LBracket, RBracket, Comma, Colon, String, Word, End };

struct Token {
  TokenType type = TokenType::End;
  std::size_t begin = 0;
  std::size_t end = 0;
  bool closed = true;  // strings: the closing quote was found on the same line
  bool plain = false;  // strings: printable ASCII with no escape, so the contents are the value
  analysis::TextRange range() const { return {begin, end}; }
};

// The blanks between tokens.
inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

inline bool startsValue(TokenType t) {
  return t == TokenType::LBrace || t == TokenType::LBracket || t == TokenType::String || t == TokenType::Word;
}

class Lexer {
 public:
  Lexer(std::string_view text, std::vector<analysis::TextRange>& comments, ErrorSink& errors);

  const Token& peek();
  void consume();
  // Continue lexing at `pos` (after skipping a region by hand).
  void seek(std::size_t pos);

  // Whether the first token at or after `pos` is ':' (looks ahead without recording comments).
  bool colonFollows(std::size_t pos) const;
  bool newlineBetween(std::size_t from, std::size_t to) const;
  // End of the run of spaces and tabs starting at `pos`.
  std::size_t blanksEnd(std::size_t pos) const;
  // Skips a nested object or array starting at `open` without recursion; returns
  // the offset after its matching bracket, or the end of the text.
  std::size_t skipBalanced(std::size_t open) const;
  // Commas between `pos` (inside a container) and the bracket that closes it, not counting
  // those of nested containers: about how many more children it has (a missing comma,
  // which the parser tolerates, makes it an underestimate).
  std::size_t commasAhead(std::size_t pos) const;

  std::string_view text() const { return text_; }

 private:
  // Offset of the next token; records comments when `record` is set.
  std::size_t skipTrivia(std::size_t pos, bool record) const;
  Token scan(std::size_t pos) const {
    Token t;
    scanInto(pos, t);
    return t;
  }
  // Fills `t` in place: a Token built apart and copied over stalls on its byte-sized fields.
  void scanInto(std::size_t pos, Token& t) const;
  std::size_t stringEnd(std::size_t pos, Token& t) const;
  std::size_t wordEnd(std::size_t pos) const;

  std::string_view text_;
  std::vector<analysis::TextRange>& comments_;
  ErrorSink& errors_;
  std::size_t pos_ = 0;
  Token current_;
  bool havePeeked_ = false;
};

}  // namespace dsls::json

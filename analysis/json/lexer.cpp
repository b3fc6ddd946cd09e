#include "analysis/json/lexer.h"

#include <optional>

namespace dsls::json {
namespace {

bool isLineEnd(char c) { return c == '\n' || c == '\r'; }

// The one-byte tokens of JSON's structure.
std::optional<TokenType> punctuationType(char c) {
  switch (c) {
    case '{': return TokenType::LBrace;
    case '}': return TokenType::RBrace;
    case '[': return TokenType::LBracket;
    case ']': return TokenType::RBracket;
    case ',': return TokenType::Comma;
    case ':': return TokenType::Colon;
    default: return std::nullopt;
  }
}

}  // namespace

Lexer::Lexer(std::string_view text, std::vector<analysis::TextRange>& comments, ErrorSink& errors)
    : text_(text), comments_(comments), errors_(errors) {
  // A UTF-8 byte order mark is not content.
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
}

const Token& Lexer::peek() {
  if (!havePeeked_) {
    pos_ = skipTrivia(pos_, true);
    scanInto(pos_, current_);
    havePeeked_ = true;
  }
  return current_;
}

void Lexer::consume() {
  peek();
  pos_ = current_.end;
  havePeeked_ = false;
}

void Lexer::seek(std::size_t pos) {
  pos_ = pos;
  havePeeked_ = false;
}

std::size_t Lexer::skipTrivia(std::size_t pos, bool record) const {
  const std::size_t n = text_.size();
  while (pos < n) {
    const char c = text_[pos];
    if (isBlank(c)) {
      ++pos;
    } else if (c == '#' || (c == '/' && pos + 1 < n && text_[pos + 1] == '/')) {
      const std::size_t begin = pos;
      while (pos < n && !isLineEnd(text_[pos])) ++pos;
      if (record) comments_.push_back({begin, pos});
    } else if (c == '/' && pos + 1 < n && text_[pos + 1] == '*') {
      const std::size_t begin = pos;
      const std::size_t close = text_.find("*/", pos + 2);
      pos = close == std::string_view::npos ? n : close + 2;
      if (record) {
        comments_.push_back({begin, pos});
        if (close == std::string_view::npos)
          errors_.add({begin, begin + 2}, "this comment is not closed; '*/' is missing");
      }
    } else {
      break;
    }
  }
  return pos;
}

void Lexer::scanInto(std::size_t pos, Token& t) const {
  t.begin = pos;
  t.closed = true;
  t.plain = false;
  if (pos >= text_.size()) {
    t.type = TokenType::End;
    t.end = pos;
    return;
  }
  t.end = pos + 1;
  if (auto punct = punctuationType(text_[pos])) {
    t.type = *punct;
  } else if (text_[pos] == '"') {
    t.type = TokenType::String;
    t.end = stringEnd(pos, t);
  } else {
    t.type = TokenType::Word;
    t.end = wordEnd(pos);
  }
}

// A string ends at its closing quote. One missing its closing quote ends at the
// end of the line, which keeps a half-typed key from swallowing the next lines.
std::size_t Lexer::stringEnd(std::size_t pos, Token& t) const {
  const std::size_t n = text_.size();
  bool plain = true;
  for (std::size_t i = pos + 1; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text_[i]);
    if (c == '"') {
      t.closed = true;
      t.plain = plain;
      return i + 1;
    }
    if (c >= 0x20 && c < 0x80 && c != '\\') continue;
    plain = false;
    if (isLineEnd(static_cast<char>(c))) {
      t.closed = false;
      return i;
    }
    if (c == '\\' && i + 1 < n && !isLineEnd(text_[i + 1])) ++i;
  }
  t.closed = false;
  return n;
}

std::size_t Lexer::wordEnd(std::size_t pos) const {
  const std::size_t n = text_.size();
  std::size_t i = pos + 1;
  for (; i < n; ++i) {
    const char c = text_[i];
    if (isBlank(c) || c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':' || c == '"' || c == '#')
      break;
    if (c == '/' && i + 1 < n && (text_[i + 1] == '/' || text_[i + 1] == '*')) break;
  }
  return i;
}

bool Lexer::colonFollows(std::size_t pos) const {
  const std::size_t next = skipTrivia(pos, false);
  return next < text_.size() && text_[next] == ':';
}

bool Lexer::newlineBetween(std::size_t from, std::size_t to) const {
  for (std::size_t i = from; i < to && i < text_.size(); ++i)
    if (isLineEnd(text_[i])) return true;
  return false;
}

std::size_t Lexer::blanksEnd(std::size_t pos) const {
  while (pos < text_.size() && (text_[pos] == ' ' || text_[pos] == '\t')) ++pos;
  return pos;
}

std::size_t Lexer::skipBalanced(std::size_t open) const {
  std::size_t depth = 0;
  std::size_t pos = open;
  while (true) {
    pos = skipTrivia(pos, false);
    const Token t = scan(pos);
    switch (t.type) {
      case TokenType::End:
        return t.end;
      case TokenType::LBrace:
      case TokenType::LBracket:
        ++depth;
        break;
      case TokenType::RBrace:
      case TokenType::RBracket:
        if (--depth == 0) return t.end;
        break;
      default:
        break;
    }
    pos = t.end;
  }
}

std::size_t Lexer::commasAhead(std::size_t pos) const {
  std::size_t depth = 0;
  std::size_t commas = 0;
  while (true) {
    pos = skipTrivia(pos, false);
    const Token t = scan(pos);
    switch (t.type) {
      case TokenType::End:
        return commas;
      case TokenType::LBrace:
      case TokenType::LBracket:
        ++depth;
        break;
      case TokenType::RBrace:
      case TokenType::RBracket:
        if (depth == 0) return commas;
        --depth;
        break;
      case TokenType::Comma:
        if (depth == 0) ++commas;
        break;
      default:
        break;
    }
    pos = t.end;
  }
}

}  // namespace dsls::json

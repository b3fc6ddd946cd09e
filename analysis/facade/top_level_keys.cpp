#include "analysis/facade/top_level_keys.h"

namespace dsls::analysis {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void advance() { ++pos_; }

  // Whitespace and // or /* */ comments.
  void skipBlanks() {
    while (!atEnd()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
        std::size_t nl = text_.find('\n', pos_);
        pos_ = nl == std::string_view::npos ? text_.size() : nl + 1;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
        std::size_t close = text_.find("*/", pos_ + 2);
        pos_ = close == std::string_view::npos ? text_.size() : close + 2;
      } else {
        return;
      }
    }
  }

  // At an opening quote: the string's raw contents, or false when it does not end in the text.
  bool readString(std::string_view& out) {
    std::size_t start = ++pos_;
    while (!atEnd()) {
      char c = text_[pos_++];
      if (c == '\\') ++pos_;
      else if (c == '"') {
        out = text_.substr(start, pos_ - 1 - start);
        return true;
      }
    }
    return false;
  }

  // Skips one value: a string, a scalar, or a nested object or array by bracket depth.
  bool skipValue() {
    skipBlanks();
    if (atEnd()) return false;
    std::string_view ignored;
    if (peek() == '"') return readString(ignored);
    if (peek() != '{' && peek() != '[') {
      while (!atEnd() && std::string_view(",}] \t\r\n/").find(peek()) == std::string_view::npos) ++pos_;
      return true;
    }
    int depth = 0;
    while (!atEnd()) {
      char c = peek();
      if (c == '"') {
        if (!readString(ignored)) return false;
        continue;
      }
      if (c == '/') {
        std::size_t before = pos_;
        skipBlanks();
        if (pos_ != before) continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') --depth;
      ++pos_;
      if (depth == 0) return true;
    }
    return false;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

TopLevelScan scanTopLevelKeys(std::string_view text, std::size_t budget,
                              const std::function<bool(std::string_view key)>& onKey) {
  TopLevelScan scan;
  text = text.substr(0, budget);
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  Scanner s(text);
  s.skipBlanks();
  if (s.atEnd() || (s.peek() != '{' && s.peek() != '"')) return scan;
  // A text that opens with a key is an object whose '{' is missing: still read its keys.
  scan.object = true;
  scan.missingBrace = s.peek() == '"';
  if (!scan.missingBrace) s.advance();
  while (true) {
    s.skipBlanks();
    if (s.atEnd()) return scan;
    if (s.peek() == '}') {
      scan.complete = true;
      return scan;
    }
    if (s.peek() == ',') {  // a trailing or doubled comma
      s.advance();
      continue;
    }
    std::string_view key;
    if (s.peek() != '"' || !s.readString(key)) return scan;
    ++scan.keys;
    if (!onKey(key)) return scan;
    s.skipBlanks();
    if (s.atEnd() || s.peek() != ':') return scan;
    s.advance();
    if (!s.skipValue()) return scan;
    s.skipBlanks();
    if (!s.atEnd() && s.peek() == ',') s.advance();  // a missing comma is read past, as the parser does
  }
}

}  // namespace dsls::analysis

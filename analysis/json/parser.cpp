// Recursive descent over the tokens with error recovery. Recursion is bounded by
// ParseOptions::maxDepth: deeper values are skipped by a flat bracket count, so
// neither parsing nor destroying the tree can exhaust the stack.
//
// Recovery rules, chosen for text being typed in an editor:
// - a missing ',' between members or elements is reported and parsing goes on;
// - a string missing its closing quote ends at the end of its line;
// - a key without ':' or a value keeps its member (the value is Invalid), so
//   completion and hover still see the key;
// - a closing bracket of the wrong kind closes the inner container if an outer
//   one of that kind is open, and is skipped otherwise;
// - a document that starts with `"key":` is read as an object missing its '{';
//   members after an early top-level '}' are read into the root object.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <iterator>
#include <string>

#include "analysis/json/document.h"
#include "analysis/json/duplicates.h"
#include "analysis/json/error_sink.h"
#include "analysis/json/lexer.h"
#include "analysis/json/placeholders.h"
#include "analysis/json/path.h"
#include "analysis/json/scalars.h"
#include "analysis/json/utf8.h"

namespace dsls::json {
namespace {

using analysis::TextRange;

// One step of the path from the root to the value being parsed.
struct PathPart {
  std::string_view key;  // the member's key, in the document's string pool
  std::size_t index = 0;
  bool isIndex = false;
};

bool isIdentifierStart(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u == '$' || u >= 0x80;
}

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& options, Document& doc)
      : text_(text),
        doc_(doc),
        errors_(doc.errors, options.maxErrors),
        lexer_(text, doc.comments, errors_),
        maxDepth_(std::clamp<std::size_t>(options.maxDepth, 1, kMaxDepthLimit)),
        cancel_(options.cancel) {}

  void run() {
    reportInvalidUtf8();
    parseDocument();
    std::stable_sort(doc_.errors.begin(), doc_.errors.end(),
                     [](const SyntaxError& a, const SyntaxError& b) { return a.range.begin < b.range.begin; });
    std::stable_sort(doc_.duplicates.begin(), doc_.duplicates.end(), [](const DuplicateKey& a, const DuplicateKey& b) {
      return a.duplicate.begin < b.duplicate.begin;
    });
  }

 private:
  // Message building lives in these out-of-line functions so that its string
  // temporaries stay out of the recursive functions' stack frames.
  [[gnu::noinline]] void error(TextRange range, const char* message, bool hjsonAccepts = false) {
    errors_.add(range, message, hjsonAccepts);
  }
  [[gnu::noinline]] void error(TextRange range, const char* before, std::string_view source, const char* after,
                               bool hjsonAccepts = false) {
    // Appended piece by piece: `before + std::string` trips GCC 12's -Wrestrict false positive (PR 105329).
    std::string message = before;
    message += quoteSource(source);
    message += after;
    errors_.add(range, std::move(message), hjsonAccepts);
  }

  // Storage. Children of an open container collect in the stack of its depth (one container
  // is open per depth), then go to the document's arena when it ends: copied into a shared
  // chunk when few, adopted whole when many, so a huge object is never held twice.
  std::string_view store(std::string_view decoded) {
    return {doc_.stringPool->append(decoded.data(), decoded.size()), decoded.size()};
  }

  std::string_view storeString(const Token& t) {
    if (auto plain = plainString(text_, t)) return store(*plain);
    return store(decodeString(text_, t, errors_));
  }

  template <typename T>
  static std::vector<T>& stackAt(std::deque<std::vector<T>>& stacks, std::size_t depth) {
    while (stacks.size() <= depth) stacks.emplace_back();
    return stacks[depth];
  }

  template <typename T>
  static void finishChildren(Node& container, std::vector<T>& stack, Arena<T>& arena) {
    constexpr std::size_t kAdoptItems = 4096;
    container.childCount_ = static_cast<std::uint32_t>(stack.size());
    if (stack.size() >= kAdoptItems) {
      container.children_ = arena.adopt(std::move(stack));
    } else {
      container.children_ = arena.append(stack.data(), stack.size());
      stack.clear();
    }
  }

  static std::uint32_t offset32(std::size_t offset) { return NodeRange::narrow(offset); }

  // A container that reaches kCountChildrenAt children is counted ahead once and its stack
  // sized for all of them: growing by doubling would hold the old and the new storage at
  // once, 1.5 to 2 times a huge object's members at the moment of the last growth.
  template <typename T>
  void reserveAhead(std::vector<T>& stack) {
    constexpr std::size_t kCheckEvery = 1 << 12;
    if ((++children_ & (kCheckEvery - 1)) == 0) cancel_.throwIfRequested();
    constexpr std::size_t kCountChildrenAt = 1 << 16;
    if (stack.size() == kCountChildrenAt) stack.reserve(stack.size() + lexer_.commasAhead(lexer_.peek().begin) + 1);
  }

  void reportInvalidUtf8() {
    constexpr int kMaxReports = 10;
    int reports = 0;
    std::size_t i = utf8::skipAscii(text_, 0);
    for (; i < text_.size() && reports < kMaxReports; i = utf8::skipAscii(text_, i)) {
      const std::size_t n = utf8::sequenceLength(text_, i);
      if (n > 0) {
        i += n;
        continue;
      }
      const std::size_t begin = i++;
      while (i < text_.size() && static_cast<unsigned char>(text_[i]) >= 0x80 && utf8::sequenceLength(text_, i) == 0)
        ++i;
      errors_.add({begin, i}, "these bytes are not valid UTF-8, so the file cannot be read as UTF-8 text");
      ++reports;
    }
  }

  void parseDocument() {
    while (!startsValue(lexer_.peek().type) && lexer_.peek().type != TokenType::End) {
      const Token t = lexer_.peek();
      errors_.add(t.range(), "expected a JSON value, found " + describe(t));
      lexer_.consume();
    }
    const Token first = lexer_.peek();
    if (first.type == TokenType::End) {
      if (doc_.errors.empty()) errors_.add({first.begin, first.begin}, "the document is empty; expected a JSON object");
      return;
    }

    if ((first.type == TokenType::String || first.type == TokenType::Word) && lexer_.colonFollows(first.end)) {
      doc_.root = parseBracelessRoot(first);
    } else {
      parseValue(doc_.root.emplace());
    }

    while (lexer_.peek().type != TokenType::End) {
      const Token t = lexer_.peek();
      Node& root = *doc_.root;
      const bool memberFollows =
          t.type == TokenType::Comma ||
          ((t.type == TokenType::String || t.type == TokenType::Word) && lexer_.colonFollows(t.end));
      if (root.kind == Kind::Object && root.closed && memberFollows) {
        // An extra '}' closed the root early; keep reading its members.
        errors_.add({root.range.end - 1, root.range.end},
                    "this '}' closes the top-level object, but more members follow it");
        if (t.type == TokenType::Comma) lexer_.consume();
        root.closed = false;
        parseRootMembers(root);
        continue;
      }
      errors_.add(t.range(), "unexpected " + describe(t) + " after the end of the document");
      break;
    }
  }

  Node parseBracelessRoot(const Token& first) {
    const std::size_t errorIndex = doc_.errors.size();
    errors_.add(first.range(), "the opening '{' is missing before the first key");
    Node root;
    root.kind = Kind::Object;
    root.range.begin = offset32(first.begin);
    root.closed = false;
    parseRootMembers(root);
    // hjson reads a multi-line document without outer braces, but not one that ends in a stray '}'.
    if (errorIndex < doc_.errors.size() && doc_.errors[errorIndex].range == first.range() && !root.closed &&
        text_.find('\n') != std::string_view::npos)
      doc_.errors[errorIndex].hjsonAccepts = true;
    return root;
  }

  // Members of a root object whose '{' is missing or whose '}' came too early.
  void parseRootMembers(Node& root) {
    ++depth_;
    open_.push_back('{');
    parseMembers(root, /*braceless=*/true);
    open_.pop_back();
    --depth_;
  }

  // Values are parsed into their final place (a member, an array slot, the
  // root) rather than returned: no Node temporaries in the recursive frames.
  void parseValue(Node& out) {
    // References to the lexer's token, here and in parseMember: it stays as it is until the
    // next peek(), and a copy of it, just written, stalls the load that reads it.
    const Token& t = lexer_.peek();
    if (t.type == TokenType::Word || t.type == TokenType::LBrace) {
      if (const std::size_t end = placeholderEnd(text_, t.begin)) {
        takePlaceholder(t.begin, end, out);
        return;
      }
    }
    switch (t.type) {
      case TokenType::String:
        lexer_.consume();
        parseString(t, out);
        if (out.closed && isPlaceholderString(out.string)) {
          out.kind = Kind::Invalid;
          doc_.placeholders.push_back(out.range);
        }
        return;
      case TokenType::Word:
        lexer_.consume();
        parseWord(t, out);
        return;
      case TokenType::LBrace:
      case TokenType::LBracket:
        parseContainer(t, out);
        return;
      default:
        return;
    }
  }

  [[gnu::noinline]] void takePlaceholder(std::size_t begin, std::size_t end, Node& n) {
    lexer_.seek(end);
    n.kind = Kind::Invalid;
    n.range = {begin, end};
    n.string = store(utf8::sanitized(text_.substr(begin, end - begin)));
    doc_.placeholders.push_back(n.range);
  }

  // Parses a value that has no place in the tree, to stay in step with the text.
  [[gnu::noinline]] void discardValue() {
    Node ignored;
    parseValue(ignored);
  }

  [[gnu::noinline]] void parseString(const Token& t, Node& n) {
    n.kind = Kind::String;
    n.range = t.range();
    n.closed = t.closed;
    n.string = storeString(t);
    if (!t.closed) error(t.range(), "this string is not closed; its closing '\"' is missing on this line");
  }

  [[gnu::noinline]] void parseWord(const Token& t, Node& n) {
    const std::string_view word = text_.substr(t.begin, t.end - t.begin);
    n.range = t.range();
    if (readLiteral(word, n)) return;
    n.kind = Kind::Invalid;
    n.string = store(utf8::sanitized(word));
    const char c = word.front();
    if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
      error(t.range(), "'", word, "' is not a valid JSON number");
    } else if (word == "True" || word == "False" || word == "None") {
      const char* spelling = word == "True"    ? "' is not a JSON value; JSON spells it true"
                             : word == "False" ? "' is not a JSON value; JSON spells it false"
                                               : "' is not a JSON value; JSON spells it null";
      error(t.range(), "'", word, spelling);
    } else {
      error(t.range(), "'", word, "' is not a JSON value; text values need double quotes");
    }
  }

  void parseContainer(const Token& open, Node& n) {
    if (depth_ >= maxDepth_) {
      skipTooDeep(open, n);
      return;
    }
    const bool isObject = open.type == TokenType::LBrace;
    lexer_.consume();
    n.kind = isObject ? Kind::Object : Kind::Array;
    n.range.begin = offset32(open.begin);
    n.closed = false;
    ++depth_;
    open_.push_back(isObject ? '{' : '[');
    if (isObject)
      parseMembers(n, /*braceless=*/false);
    else
      parseElements(n);
    open_.pop_back();
    --depth_;
  }

  [[gnu::noinline]] void skipTooDeep(const Token& open, Node& n) {
    const std::size_t end = lexer_.skipBalanced(open.begin);
    lexer_.seek(end);
    errors_.add(open.range(), "nesting deeper than " + std::to_string(maxDepth_) + " levels; this value is skipped");
    n.kind = Kind::Invalid;
    n.range = {open.begin, end};
    n.closed = false;
  }

  // Whether an enclosing container (not the innermost) was opened with `bracket`.
  bool openBelow(char bracket) const {
    return open_.size() >= 2 && std::find(open_.begin(), open_.end() - 1, bracket) != open_.end() - 1;
  }

  [[gnu::noinline]] void reportUnclosed(std::size_t begin, char bracket) {
    // Only the innermost one: the outer ones follow from it.
    if (unclosedReported_) return;
    unclosedReported_ = true;
    const char closer = bracket == '{' ? '}' : ']';
    errors_.add({begin, begin + 1},
                std::string("this '") + bracket + "' has no matching '" + closer + "' before the end of the text");
  }

  // A root object read again after an early '}' takes its members back from the arena.
  void parseMembers(Node& object, bool braceless) {
    std::vector<Member>& members = stackAt(memberStacks_, depth_);
    const std::size_t earlier = object.members().size();
    members.assign(object.members().begin(), object.members().end());
    parseMemberList(object, braceless);
    reportDuplicates(members, earlier);
    finishChildren(object, members, doc_.memberArena);
  }

  void parseMemberList(Node& object, bool braceless) {
    while (true) {
      const Token t = lexer_.peek();
      switch (t.type) {
        case TokenType::RBrace:
          lexer_.consume();
          object.closed = true;
          object.range.end = offset32(t.end);
          return;
        case TokenType::End:
          object.range.end = offset32(t.begin);
          if (!braceless) reportUnclosed(object.range.begin, '{');
          return;
        case TokenType::RBracket:
          if (openBelow('[')) {
            error(t.range(), "expected '}' to close the object before ']'");
            object.range.end = offset32(t.begin);
            return;
          }
          error(t.range(), "unexpected ']' inside an object");
          lexer_.consume();
          continue;
        case TokenType::Comma:
          error(t.range(), "unexpected ','; a member is missing before it");
          lexer_.consume();
          continue;
        case TokenType::Colon:
          error(t.range(), "expected a key before ':'");
          lexer_.consume();
          if (startsValue(lexer_.peek().type) && !startsMember(lexer_.peek())) discardValue();
          continue;
        case TokenType::LBrace:
        case TokenType::LBracket:
          error(t.range(), "expected a key, found '", text_.substr(t.begin, 1), "'");
          discardValue();
          continue;
        case TokenType::Word:
          if (!isIdentifierStart(text_[t.begin]) && !lexer_.colonFollows(t.end)) {
            error(t.range(), "unexpected '", text_.substr(t.begin, t.end - t.begin), "' inside an object");
            lexer_.consume();
            continue;
          }
          break;
        case TokenType::String:
          break;
      }

      const bool complete = parseMember(t);
      const Token s = lexer_.peek();
      if (s.type == TokenType::Comma) {
        lexer_.consume();
        const TokenType next = lexer_.peek().type;
        if (next == TokenType::RBrace || (braceless && next == TokenType::End))
          doc_.trailingCommas.push_back(s.range());
      } else if (startsValue(s.type) && complete) {
        const Member& m = memberStacks_[depth_].back();
        error(s.range(), "expected ',' or '}' after the value of \"", m.key, "\"",
              hjsonReadsWithoutComma(m.value, s));
      }
    }
  }

  bool startsMember(const Token& t) const {
    return (t.type == TokenType::String || t.type == TokenType::Word) && lexer_.colonFollows(t.end);
  }

  // hjson needs no comma when the next token is on a new line, or when the
  // previous value ends with its own delimiter.
  bool hjsonReadsWithoutComma(const Node& previous, const Token& next) const {
    return previous.kind == Kind::String || previous.kind == Kind::Object || previous.kind == Kind::Array ||
           lexer_.newlineBetween(previous.range.end, next.begin);
  }

  // Parses one `key: value` onto the stack of this depth. Returns false when the member is
  // incomplete (its key unterminated, or its colon or value missing).
  bool parseMember(const Token& keyToken) {
    lexer_.consume();
    // Deeper values use deeper stacks, so this one neither grows nor moves meanwhile.
    std::vector<Member>& members = memberStacks_[depth_];
    reserveAhead(members);
    Member& m = members.emplace_back();
    m.keyRange = keyToken.range();
    bool complete = true;
    bool keyReported = false;  // one error per broken key is enough
    std::string_view key;
    if (keyToken.type == TokenType::String) {
      key = storeString(keyToken);
      if (!keyToken.closed) {
        error(keyToken.range(), "this key is not closed; its closing '\"' is missing on this line");
        keyReported = true;
      }
    } else {
      const std::string_view word = text_.substr(keyToken.begin, keyToken.end - keyToken.begin);
      key = store(utf8::sanitized(word));
      if (isIdentifierStart(word.front()))
        error(keyToken.range(), "the key '", word, "' needs double quotes", true);
      else
        error(keyToken.range(), "expected a key, found '", word, "'");
      keyReported = true;
    }
    m.key = key;

    const Token& colon = lexer_.peek();
    const bool haveColon = colon.type == TokenType::Colon;
    std::size_t valueStart = keyToken.end;
    if (haveColon) {
      lexer_.consume();
      valueStart = colon.end;
    } else {
      if (!keyReported) error(colon.range(), "expected ':' after the key \"", key, "\"");
      complete = false;
    }

    const Token& v = lexer_.peek();  // not used once parseValue() peeks again
    bool takeValue = startsValue(v.type);
    // Without a colon, a token on a later line or one followed by ':' starts the next member.
    if (takeValue && !haveColon && (startsMember(v) || lexer_.newlineBetween(keyToken.end, v.begin))) takeValue = false;
    Node& value = m.value;
    if (takeValue) {
      path_.push_back({key, 0, false});
      parseValue(value);
      path_.pop_back();
      // An unclosed string ran to the end of its line and likely took the comma with it.
      if (value.kind == Kind::String && !value.closed) complete = false;
    } else {
      value.kind = Kind::Invalid;
      value.closed = false;
      value.range = {valueStart, std::max(valueStart, std::min(lexer_.blanksEnd(valueStart), v.begin))};
      if (haveColon) error(v.range(), "expected a value for \"", key, "\"");
      complete = false;
    }
    if (!keyToken.closed) complete = false;
    return complete;
  }

  // Duplicate keys among the members of one object; those among the first `earlier` were
  // reported before.
  [[gnu::noinline]] void reportDuplicates(const std::vector<Member>& members, std::size_t earlier) {
    for (const auto& [first, duplicate] : duplicatePairs(members.data(), members.size(), earlier))
      reportDuplicate(members[first].keyRange, members[duplicate]);
  }

  void parseElements(Node& array) {
    std::vector<Node>& elements = stackAt(elementStacks_, depth_);
    parseElementList(array, elements);
    finishChildren(array, elements, doc_.elementArena);
  }

  void parseElementList(Node& array, std::vector<Node>& elements) {
    while (true) {
      const Token t = lexer_.peek();
      switch (t.type) {
        case TokenType::RBracket:
          lexer_.consume();
          array.closed = true;
          array.range.end = offset32(t.end);
          return;
        case TokenType::End:
          array.range.end = offset32(t.begin);
          reportUnclosed(array.range.begin, '[');
          return;
        case TokenType::RBrace:
          if (openBelow('{')) {
            error(t.range(), "expected ']' to close the array before '}'");
            array.range.end = offset32(t.begin);
            return;
          }
          error(t.range(), "unexpected '}' inside an array");
          lexer_.consume();
          continue;
        case TokenType::Comma:
          error(t.range(), "unexpected ','; a value is missing before it");
          lexer_.consume();
          continue;
        case TokenType::Colon:
          error(t.range(), "unexpected ':' inside an array");
          lexer_.consume();
          continue;
        default:
          break;
      }

      path_.push_back({{}, elements.size(), true});
      reserveAhead(elements);
      parseValue(elements.emplace_back());
      path_.pop_back();
      const Token s = lexer_.peek();
      if (s.type == TokenType::Comma) {
        lexer_.consume();
        if (lexer_.peek().type == TokenType::RBracket) doc_.trailingCommas.push_back(s.range());
      } else if (startsValue(s.type) && elements.back().closed) {
        error(s.range(), "expected ',' or ']' after an array element", hjsonReadsWithoutComma(elements.back(), s));
      }
    }
  }

  [[gnu::noinline]] void reportDuplicate(TextRange first, const Member& duplicate) {
    std::vector<std::string> parts;
    parts.reserve(path_.size() + 1);
    for (const PathPart& p : path_) parts.push_back(p.isIndex ? indexPart(p.index) : std::string(p.key));
    parts.emplace_back(duplicate.key);
    doc_.duplicates.push_back({joinPath(parts), first, duplicate.keyRange});
  }

  std::string describe(const Token& t) const {
    switch (t.type) {
      case TokenType::End:
        return "the end of the text";
      case TokenType::String:
      case TokenType::Word:
        return std::string("'").append(quoteSource(text_.substr(t.begin, t.end - t.begin))).append("'");
      default:
        return std::string("'") + text_[t.begin] + "'";
    }
  }

  std::string_view text_;
  Document& doc_;
  ErrorSink errors_;
  Lexer lexer_;
  std::size_t maxDepth_;
  std::size_t depth_ = 0;
  std::vector<char> open_;  // brackets currently open, innermost last
  std::vector<PathPart> path_;
  // Children of the containers still open, by depth (a deque: growing it moves no stack).
  std::deque<std::vector<Member>> memberStacks_;
  std::deque<std::vector<Node>> elementStacks_;
  bool unclosedReported_ = false;
  analysis::Cancellation cancel_;
  std::size_t children_ = 0;  // members and elements parsed so far
};

}  // namespace

Document parse(std::string_view text, const ParseOptions& options) {
  Document doc;
  Parser(text, options, doc).run();
  return doc;
}

}  // namespace dsls::json

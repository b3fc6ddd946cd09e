#include "analysis/json/reparse.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "analysis/json/duplicates.h"
#include "analysis/json/error_sink.h"
#include "analysis/json/lexer.h"
#include "analysis/json/path.h"
#include "analysis/json/scalars.h"
#include "analysis/json/utf8.h"

namespace dsls::json {
namespace {

using analysis::TextRange;

// Blocks compared with memcmp before the byte-by-byte tail: the texts are megabytes.
constexpr std::size_t kCompareBlock = 256;

std::size_t commonPrefix(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  std::size_t i = 0;
  while (i + kCompareBlock <= n && std::memcmp(a.data() + i, b.data() + i, kCompareBlock) == 0) i += kCompareBlock;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

// The length of the common tail, at most `limit`.
std::size_t commonSuffix(std::string_view a, std::string_view b, std::size_t limit) {
  const char* ae = a.data() + a.size();
  const char* be = b.data() + b.size();
  std::size_t i = 0;
  while (i + kCompareBlock <= limit &&
         std::memcmp(ae - i - kCompareBlock, be - i - kCompareBlock, kCompareBlock) == 0)
    i += kCompareBlock;
  while (i < limit && ae[-1 - static_cast<std::ptrdiff_t>(i)] == be[-1 - static_cast<std::ptrdiff_t>(i)]) ++i;
  return i;
}

// The token that holds all of [begin, end] (an insertion at either edge of a token counts): a
// scalar value, or a member's key. Neither when the region is in blanks or punctuation, or spans
// tokens.
struct Holding {
  const Node* value = nullptr;
  const Member* key = nullptr;
};

Holding tokenHolding(const Node& root, std::size_t begin, std::size_t end) {
  const Node* n = &root;
  while (n->range.begin <= begin && end <= n->range.end) {
    if (n->kind == Kind::Object) {
      const Span<Member> members = n->members();
      const auto after = std::upper_bound(members.begin(), members.end(), begin,
                                          [](std::size_t pos, const Member& m) { return pos < m.keyRange.begin; });
      if (after == members.begin()) return {};
      const Member& m = *std::prev(after);
      if (m.keyRange.begin <= begin && end <= m.keyRange.end) return {nullptr, &m};
      n = &m.value;
    } else if (n->kind == Kind::Array) {
      const Span<Node> elements = n->elements();
      const auto after = std::upper_bound(elements.begin(), elements.end(), begin,
                                          [](std::size_t pos, const Node& e) { return pos < e.range.begin; });
      if (after == elements.begin()) return {};
      n = std::prev(after);
    } else {
      return {n->kind == Kind::Invalid ? nullptr : n, nullptr};
    }
  }
  return {};
}

bool allBlank(std::string_view text) { return std::all_of(text.begin(), text.end(), isBlank); }

// Whether the region [begin, end] (an insertion when they are equal) falls inside a key's or a
// scalar's text, where a blank changes the token (a space in a string, one that splits a number).
bool insideToken(const Node& root, std::size_t begin, std::size_t end) {
  const auto inside = [&](NodeRange r) {
    return begin == end ? (r.begin < begin && begin < r.end) : (r.begin < end && begin < r.end);
  };
  const Node* n = &root;
  while (true) {
    if (!inside(n->range)) return false;  // before, after, or at an edge of this value
    if (n->kind == Kind::Object) {
      const Span<Member> members = n->members();
      // Blanks cannot reach into a later child, which starts with a quote, a bracket or a letter.
      const auto after = std::upper_bound(members.begin(), members.end(), begin,
                                          [](std::size_t pos, const Member& m) { return pos < m.keyRange.begin; });
      if (after == members.begin()) return false;
      const Member& m = *std::prev(after);
      if (inside(m.keyRange)) return true;
      n = &m.value;
    } else if (n->kind == Kind::Array) {
      const Span<Node> elements = n->elements();
      const auto after = std::upper_bound(elements.begin(), elements.end(), begin,
                                          [](std::size_t pos, const Node& e) { return pos < e.range.begin; });
      if (after == elements.begin()) return false;
      n = std::prev(after);
    } else {
      return true;
    }
  }
}

// An edit that only adds or removes blanks between the tokens of a document without errors: the
// tokens stay as they are (newlines only matter to how errors are read, and a comment that the
// blanks touch could grow or end).
bool onlyBlanksBetweenTokens(const Document& old, std::string_view oldText, std::string_view newText,
                             const ChangedRegion& region) {
  if (!old.errors.empty()) return false;
  if (!allBlank(oldText.substr(region.begin, region.oldEnd - region.begin)) ||
      !allBlank(newText.substr(region.begin, region.newEnd - region.begin)))
    return false;
  if (region.begin < 3 && (oldText.substr(0, 3) == "\xEF\xBB\xBF" || newText.substr(0, 3) == "\xEF\xBB\xBF"))
    return false;  // blanks before a byte order mark make it text
  const bool nearComment = std::any_of(old.comments.begin(), old.comments.end(), [&](TextRange c) {
    return c.end >= region.begin && c.begin <= region.oldEnd;
  });
  return !nearComment && !insideToken(*old.root, region.begin, region.oldEnd);
}

bool isValidUtf8(std::string_view text) {
  for (std::size_t i = utf8::skipAscii(text, 0); i < text.size(); i = utf8::skipAscii(text, i)) {
    const std::size_t n = utf8::sequenceLength(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// Whether an error lies in or touches `range`: the token's own errors, and those next to it
// (a missing comma) whose text could change with it.
bool errorNear(const Document& doc, TextRange range) {
  return std::any_of(doc.errors.begin(), doc.errors.end(), [&](const SyntaxError& e) {
    return e.range.end >= range.begin && e.range.begin <= range.end;
  });
}

// The new text's value where `old` was, ending at `newEnd`: when it is one token of the same
// kind (a string stays a string, a literal stays a literal) that reads without an error.
// A string's decoded value goes to `pool`.
std::optional<Node> rereadScalar(const Node& old, std::string_view newText, std::size_t newEnd, Arena<char>& pool) {
  std::vector<TextRange> comments;
  std::vector<SyntaxError> errors;
  ErrorSink sink(errors, 4);
  Lexer lexer(newText, comments, sink);
  lexer.seek(old.range.begin);
  const Token t = lexer.peek();
  if (t.begin != old.range.begin || t.end != newEnd || !comments.empty() || !errors.empty()) return std::nullopt;
  const std::string_view tokenText = newText.substr(t.begin, t.end - t.begin);
  if (!isValidUtf8(tokenText)) return std::nullopt;
  Node n;
  n.range = t.range();
  if (old.kind == Kind::String) {
    if (t.type != TokenType::String || !t.closed) return std::nullopt;
    std::string decoded;
    std::string_view value;
    if (auto plain = plainString(newText, t)) {
      value = *plain;
    } else {
      decoded = decodeString(newText, t, sink);
      value = decoded;
    }
    if (!errors.empty()) return std::nullopt;
    n.kind = Kind::String;
    n.string = {pool.append(value.data(), value.size()), value.size()};
    return n;
  }
  if (t.type != TokenType::Word || !readLiteral(tokenText, n)) return std::nullopt;
  return n;
}

// Revisions whose string pools a reused document may hold; past that its strings are copied
// into its own pool, so that a long run of edits does not hold a long chain of pools.
constexpr std::size_t kMaxOlderPools = 8;

// How the offsets after an edit move: a range's start at or after `beginsFrom`, and its end at
// or after `endsFrom`, by `delta`. They differ for an insertion between two tokens, where the
// token that ends there stays and the one that starts there moves.
struct Move {
  std::size_t beginsFrom = 0, endsFrom = 0;
  std::int64_t delta = 0;
};

// What an edit changed in the tree: one scalar value, or one member's key (its new text and
// range in `replacement`), or nothing.
struct Replacement {
  const Node* value = nullptr;
  const Member* key = nullptr;
  Node replacement;
};

// Copies a tree into a new document: offsets move as `move` says, strings stay where they are
// (`copyStrings` false: the new document holds the old pools) or go to the new pool, and the
// value or key that `edit` names takes its new form.
class ShiftedCopy {
 public:
  ShiftedCopy(Document& out, Move move, const Replacement& edit, bool copyStrings,
              const analysis::Cancellation& cancel)
      : out_(out),
        move_(move),
        edit_(edit),
        copyStrings_(copyStrings),
        cancel_(cancel) {}

  // `copy` starts as a bitwise copy of `old`, in its new place.
  void fix(const Node& old, Node& copy) {
    if (&old == edit_.value) {
      copy = edit_.replacement;
      return;
    }
    constexpr std::size_t kCheckEvery = 1 << 12;
    if ((++nodes_ & (kCheckEvery - 1)) == 0) cancel_.throwIfRequested();
    copy.range = shift(old.range);
    if (!old.string.empty()) copy.string = store(old.string);
    if (old.kind == Kind::Object) {
      const Span<Member> members = old.members();
      Member* run = out_.memberArena.append(members.data, members.size());
      copy.children_ = run;
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (&members[i] == edit_.key) {
          run[i].key = edit_.replacement.string;
          run[i].keyRange = edit_.replacement.range;
        } else {
          run[i].key = store(members[i].key);
          run[i].keyRange = shift(members[i].keyRange);
        }
        fix(members[i].value, run[i].value);
      }
    } else if (old.kind == Kind::Array) {
      const Span<Node> elements = old.elements();
      Node* run = out_.elementArena.append(elements.data, elements.size());
      copy.children_ = run;
      for (std::size_t i = 0; i < elements.size(); ++i) fix(elements[i], run[i]);
    }
  }

  TextRange shift(TextRange r) const { return {shift(r.begin, move_.beginsFrom), shift(r.end, move_.endsFrom)}; }
  NodeRange shift(NodeRange r) const {
    return {shift(std::size_t{r.begin}, move_.beginsFrom), shift(std::size_t{r.end}, move_.endsFrom)};
  }

 private:
  std::size_t shift(std::size_t offset, std::size_t from) const {
    return offset >= from ? static_cast<std::size_t>(static_cast<std::int64_t>(offset) + move_.delta) : offset;
  }
  std::string_view store(std::string_view s) {
    if (!copyStrings_) return s;
    return {out_.stringPool->append(s.data(), s.size()), s.size()};
  }

  Document& out_;
  Move move_;
  const Replacement& edit_;
  bool copyStrings_;
  analysis::Cancellation cancel_;
  std::size_t nodes_ = 0;
};

// Everything of `old` but its tree, with ranges moved as `copy` moves them.
void copyLists(const Document& old, const ShiftedCopy& copy, Document& out) {
  out.errors.reserve(old.errors.size());
  for (const SyntaxError& e : old.errors) out.errors.push_back({copy.shift(e.range), e.message, e.hjsonAccepts});
  out.comments.reserve(old.comments.size());
  for (const TextRange& c : old.comments) out.comments.push_back(copy.shift(c));
  out.trailingCommas.reserve(old.trailingCommas.size());
  for (const TextRange& c : old.trailingCommas) out.trailingCommas.push_back(copy.shift(c));
  out.duplicates.reserve(old.duplicates.size());
  for (const DuplicateKey& d : old.duplicates)
    out.duplicates.push_back({d.path, copy.shift(d.first), copy.shift(d.duplicate)});
}

// The duplicate keys of a whole tree, in the parser's form and order.
class DuplicateWalk {
 public:
  std::vector<DuplicateKey> run(const Node& root) {
    visit(root);
    std::sort(found_.begin(), found_.end(),
              [](const DuplicateKey& a, const DuplicateKey& b) { return a.duplicate.begin < b.duplicate.begin; });
    return std::move(found_);
  }

 private:
  void visit(const Node& n) {
    if (n.kind == Kind::Object) {
      const Span<Member> members = n.members();
      for (const auto& [first, duplicate] : duplicatePairs(members.data, members.size()))
        found_.push_back({pathTo(members[duplicate].key), members[first].keyRange, members[duplicate].keyRange});
      for (const Member& m : members) {
        path_.push_back({m.key, 0});
        visit(m.value);
        path_.pop_back();
      }
    } else if (n.kind == Kind::Array) {
      for (std::size_t i = 0; i < n.elements().size(); ++i) {
        path_.push_back({{}, i + 1});
        visit(n.elements()[i]);
        path_.pop_back();
      }
    }
  }

  std::string pathTo(std::string_view key) const {
    std::vector<std::string> parts;
    parts.reserve(path_.size() + 1);
    for (const auto& [name, index] : path_) parts.push_back(index ? indexPart(index - 1) : std::string(name));
    parts.emplace_back(key);
    return joinPath(parts);
  }

  std::vector<std::pair<std::string_view, std::size_t>> path_;  // a key, or an array index + 1
  std::vector<DuplicateKey> found_;
};

std::vector<DuplicateKey> duplicatesIn(const Node& root) { return DuplicateWalk().run(root); }

// What the edit between the two texts changed (`edit`; a new string goes to `pool`) and how the
// later offsets move, or nullopt when it is none of the edits reused.
std::optional<Move> readEdit(const Document& old, std::string_view oldText, std::string_view newText,
                             Replacement& edit, Arena<char>& pool) {
  const ChangedRegion region = changedRegion(oldText, newText);
  const std::int64_t delta = static_cast<std::int64_t>(newText.size()) - static_cast<std::int64_t>(oldText.size());
  if (region.begin == oldText.size() && region.begin == newText.size()) return Move{oldText.size(), oldText.size(), 0};
  // Blanks between tokens: a start moves from the end of the blanks, an end from just after their start.
  if (onlyBlanksBetweenTokens(old, oldText, newText, region)) return Move{region.oldEnd, region.begin + 1, delta};
  const Holding held = tokenHolding(*old.root, region.begin, region.oldEnd);
  Node token;  // the edited value, or the edited key read as a string
  if (held.value && !errorNear(old, held.value->range)) {
    token = *held.value;
  } else if (held.key && old.errors.empty()) {  // error messages quote keys
    token.kind = Kind::String;
    token.range = held.key->keyRange;
  } else {
    return std::nullopt;
  }
  const auto newEnd = static_cast<std::size_t>(static_cast<std::int64_t>(token.range.end) + delta);
  std::optional<Node> reread = rereadScalar(token, newText, newEnd, pool);
  if (!reread) return std::nullopt;
  edit = {held.value, held.key, *reread};
  // Offsets from the end of the edited token on move; those before it stay.
  return Move{token.range.end, token.range.end, delta};
}

}  // namespace

ChangedRegion changedRegion(std::string_view oldText, std::string_view newText) {
  const std::size_t prefix = commonPrefix(oldText, newText);
  const std::size_t suffix = commonSuffix(oldText, newText, std::min(oldText.size(), newText.size()) - prefix);
  return {prefix, oldText.size() - suffix, newText.size() - suffix};
}

std::optional<Document> reparseAfterEdit(const Document& old, std::string_view oldText, std::string_view newText,
                                         const ParseOptions& options) {
  // A template is parsed whole: an edit can turn a placeholder into a value or back.
  if (!old.root || newText.size() >= UINT32_MAX || !old.placeholders.empty()) return std::nullopt;
  Document out;
  Replacement edit;
  const std::optional<Move> move = readEdit(old, oldText, newText, edit, *out.stringPool);
  if (!move) return std::nullopt;
  const bool holdPools = old.olderPools.size() < kMaxOlderPools;
  if (holdPools) {
    out.olderPools = old.olderPools;
    out.olderPools.push_back(old.stringPool);
  }
  ShiftedCopy copy(out, *move, edit, !holdPools, options.cancel);
  copy.fix(*old.root, out.root.emplace(*old.root));
  copyLists(old, copy, out);
  // A key that changed can make or end a duplicate, and it names the paths of those under it.
  if (edit.key) out.duplicates = duplicatesIn(*out.root);
  return out;
}

}  // namespace dsls::json

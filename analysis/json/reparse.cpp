#include "analysis/json/reparse.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "analysis/json/error_sink.h"
#include "analysis/json/lexer.h"
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

// The scalar value whose token holds all of [begin, end] (an insertion at either edge of a token
// counts), or nullptr: the region is in a key, in blanks or punctuation, or spans tokens.
const Node* scalarHolding(const Node& root, std::size_t begin, std::size_t end) {
  const Node* n = &root;
  while (n->range.begin <= begin && end <= n->range.end) {
    if (n->kind == Kind::Object) {
      const Span<Member> members = n->members();
      const auto after = std::upper_bound(members.begin(), members.end(), begin,
                                          [](std::size_t pos, const Member& m) { return pos < m.keyRange.begin; });
      if (after == members.begin()) return nullptr;
      n = &std::prev(after)->value;
    } else if (n->kind == Kind::Array) {
      const Span<Node> elements = n->elements();
      const auto after = std::upper_bound(elements.begin(), elements.end(), begin,
                                          [](std::size_t pos, const Node& e) { return pos < e.range.begin; });
      if (after == elements.begin()) return nullptr;
      n = std::prev(after);
    } else {
      return n->kind == Kind::Invalid ? nullptr : n;
    }
  }
  return nullptr;
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

// Copies a tree into a new document: offsets at or after `movedFrom` move by `delta`, strings
// stay where they are (`copyStrings` false: the new document holds the old pools) or go to the
// new pool, and the node `replaced` becomes `replacement`.
class ShiftedCopy {
 public:
  ShiftedCopy(Document& out, std::size_t movedFrom, std::int64_t delta, const Node* replaced, const Node& replacement,
              bool copyStrings, const analysis::Cancellation& cancel)
      : out_(out),
        movedFrom_(movedFrom),
        delta_(delta),
        replaced_(replaced),
        replacement_(replacement),
        copyStrings_(copyStrings),
        cancel_(cancel) {}

  // `copy` starts as a bitwise copy of `old`, in its new place.
  void fix(const Node& old, Node& copy) {
    if (&old == replaced_) {
      copy = replacement_;
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
        run[i].key = store(members[i].key);
        run[i].keyRange = shift(members[i].keyRange);
        fix(members[i].value, run[i].value);
      }
    } else if (old.kind == Kind::Array) {
      const Span<Node> elements = old.elements();
      Node* run = out_.elementArena.append(elements.data, elements.size());
      copy.children_ = run;
      for (std::size_t i = 0; i < elements.size(); ++i) fix(elements[i], run[i]);
    }
  }

  TextRange shift(TextRange r) const { return {shift(r.begin), shift(r.end)}; }
  NodeRange shift(NodeRange r) const { return {shift(std::size_t{r.begin}), shift(std::size_t{r.end})}; }

 private:
  std::size_t shift(std::size_t offset) const {
    return offset >= movedFrom_ ? static_cast<std::size_t>(static_cast<std::int64_t>(offset) + delta_) : offset;
  }
  std::string_view store(std::string_view s) {
    if (!copyStrings_) return s;
    return {out_.stringPool->append(s.data(), s.size()), s.size()};
  }

  Document& out_;
  std::size_t movedFrom_;
  std::int64_t delta_;
  const Node* replaced_;
  const Node& replacement_;
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

}  // namespace

ChangedRegion changedRegion(std::string_view oldText, std::string_view newText) {
  const std::size_t prefix = commonPrefix(oldText, newText);
  const std::size_t suffix = commonSuffix(oldText, newText, std::min(oldText.size(), newText.size()) - prefix);
  return {prefix, oldText.size() - suffix, newText.size() - suffix};
}

std::optional<Document> reparseAfterEdit(const Document& old, std::string_view oldText, std::string_view newText,
                                         const ParseOptions& options) {
  if (!old.root || newText.size() >= UINT32_MAX) return std::nullopt;
  const ChangedRegion region = changedRegion(oldText, newText);
  const bool same = region.begin == oldText.size() && region.begin == newText.size();
  const std::int64_t delta = static_cast<std::int64_t>(newText.size()) - static_cast<std::int64_t>(oldText.size());
  Document out;
  const Node* edited = nullptr;
  Node replacement;
  if (!same) {
    edited = scalarHolding(*old.root, region.begin, region.oldEnd);
    if (!edited || errorNear(old, edited->range)) return std::nullopt;
    const auto newEnd = static_cast<std::size_t>(static_cast<std::int64_t>(edited->range.end) + delta);
    std::optional<Node> reread = rereadScalar(*edited, newText, newEnd, *out.stringPool);
    if (!reread) return std::nullopt;
    replacement = *reread;
  }
  const bool holdPools = old.olderPools.size() < kMaxOlderPools;
  if (holdPools) {
    out.olderPools = old.olderPools;
    out.olderPools.push_back(old.stringPool);
  }
  // Offsets from the end of the edited token on move; those before it stay.
  ShiftedCopy copy(out, edited ? edited->range.end : oldText.size(), delta, edited, replacement, !holdPools,
                   options.cancel);
  copy.fix(*old.root, out.root.emplace(*old.root));
  copyLists(old, copy, out);
  return out;
}

}  // namespace dsls::json

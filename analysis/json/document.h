// A tolerant JSON parser that keeps the byte range of every key and value.
//
// Why not nlohmann/json: it keeps no source positions and stops at the first
// error. The editor needs the range of every key and value, and it needs
// diagnostics, hovers and completion on half-typed files, so this parser
// recovers from errors and keeps everything that did parse.
//
// What it accepts beyond strict JSON, mirroring DeepSpeed's own loader (hjson):
// `//`, `/* */` and `#` comments and trailing commas. Those are recorded, not
// reported as errors. Everything else that is not strict JSON is an error; an
// error that hjson (and therefore DeepSpeed) reads past anyway is flagged with
// `hjsonAccepts`. Tools that read the file with Python's json module (the
// Hugging Face Trainer, Accelerate) still reject those errors.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/core/cancel.h"
#include "analysis/core/finding.h"

namespace dsls::json {

enum class Kind : std::uint8_t { Null, Bool, Number, String, Array, Object, Invalid };

struct Member;

// A read-only run of nodes or members in one of the Document's arenas.
template <typename T>
struct Span {
  const T* begin() const { return data; }
  const T* end() const { return data + count; }
  std::size_t size() const { return count; }
  bool empty() const { return count == 0; }
  const T& operator[](std::size_t i) const { return data[i]; }
  const T& at(std::size_t i) const {
    if (i >= count) throw std::out_of_range("json::Span::at");
    return data[i];
  }
  const T& front() const { return data[0]; }
  const T& back() const { return data[count - 1]; }

  // Set by the parser.
  const T* data = nullptr;
  std::size_t count = 0;
};

// A byte range in 32 bits: nodes are most of a large document's memory. Converts to and from
// analysis::TextRange; an offset past 4 GiB (no editor sends such a document) saturates.
struct NodeRange {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;

  NodeRange() = default;
  NodeRange(std::size_t b, std::size_t e) : begin(narrow(b)), end(narrow(e)) {}
  NodeRange(analysis::TextRange r) : NodeRange(r.begin, r.end) {}  // NOLINT: implicit on purpose
  operator analysis::TextRange() const { return {begin, end}; }
  bool operator==(const NodeRange&) const = default;
  friend bool operator==(const NodeRange& a, const analysis::TextRange& b) { return a.begin == b.begin && a.end == b.end; }

  static std::uint32_t narrow(std::size_t offset) {
    return static_cast<std::uint32_t>(std::min<std::size_t>(offset, UINT32_MAX));
  }
};

// Nodes and members hold no heap memory of their own: children live in the Document's arenas,
// one contiguous vector of members and one of array elements, and decoded strings in its string
// pool. They are valid while their Document lives (moving the Document keeps them valid).
// 48 bytes a node, 72 a member.
struct Node {
  Kind kind = Kind::Invalid;
  bool boolean = false;
  // The number's value is finite and integral, however it is written: 8, 5e8 and
  // 1.0 all count. hjson turns such floats into ints only below 1e10.
  bool isInteger = false;
  // Objects and arrays: the closing bracket was found. Strings: the closing quote was.
  bool closed = true;
  std::uint32_t childCount_ = 0;  // set by the parser, read through members() and elements()
  NodeRange range;  // the value's exact source text; strings include the quotes

  double number = 0.0;
  // The number as an int, when it is an integer that fits one (a larger one, 4.1e10 for a
  // stage, is no value a DeepSpeed int field holds); empty otherwise.
  std::optional<int> intValue() const {
    if (kind != Kind::Number || !isInteger || number < INT_MIN || number > INT_MAX) return std::nullopt;
    return static_cast<int>(number);
  }
  // The decoded string value. For an Invalid node made from unquoted text
  // (`"key": auto`), that text.
  std::string_view string;

  const void* children_ = nullptr;  // set by the parser: an object's members or an array's elements

  // Objects: the members in source order, duplicates kept; empty for any other kind.
  Span<Member> members() const;
  // Arrays: the elements; empty for any other kind.
  Span<Node> elements() const;

  std::string_view raw(std::string_view text) const;
  // The first member with this key, or nullptr.
  const Member* find(std::string_view key) const;
};

struct Member {
  std::string_view key;    // decoded key text
  NodeRange keyRange;      // includes the quotes
  // A member whose value is missing (`"stage":` then `}`) has an Invalid value
  // whose range covers the blanks after the colon on that line.
  Node value;

  // From the key's start to the value's end (a value's range always ends at or after the colon).
  analysis::TextRange range() const { return {keyRange.begin, value.range.end}; }
};

// The sizes the memory figures of large documents rest on (docs/benchmarks.md).
static_assert(sizeof(Node) <= 48 && sizeof(Member) <= 72);

inline Span<Member> Node::members() const {
  if (kind != Kind::Object) return {};
  return {static_cast<const Member*>(children_), childCount_};
}
inline Span<Node> Node::elements() const {
  if (kind != Kind::Array) return {};
  return {static_cast<const Node*>(children_), childCount_};
}

// Storage that only grows and never moves what it holds: chunks that are filled but never
// reallocated, and large runs adopted whole as chunks of their own (no copy).
template <typename T>
class Arena {
 public:
  // Copies `n` items into one contiguous run and returns its start (nullptr when n is 0); the
  // owner may still change what it appended.
  T* append(const T* first, std::size_t n) {
    if (n == 0) return nullptr;
    if (chunks_.empty() || chunks_.back().capacity() - chunks_.back().size() < n) {
      chunks_.emplace_back().reserve(std::max(n, kChunkItems));
    }
    std::vector<T>& chunk = chunks_.back();
    const std::size_t at = chunk.size();
    chunk.insert(chunk.end(), first, first + n);
    return chunk.data() + at;
  }
  // Takes `items` whole as a chunk of its own and returns its start; `items` is left empty.
  const T* adopt(std::vector<T>&& items) {
    if (items.empty()) return nullptr;
    // Kept before the current chunk so that appends still fill the current one.
    const T* start = items.data();
    chunks_.insert(chunks_.empty() ? chunks_.end() : chunks_.end() - 1, std::move(items));
    items = std::vector<T>();
    return start;
  }

 private:
  static constexpr std::size_t kChunkItems = std::max<std::size_t>(16, (16 << 10) / sizeof(T));
  std::vector<std::vector<T>> chunks_;
};

struct SyntaxError {
  analysis::TextRange range;
  std::string message;
  // DeepSpeed's loader (hjson) reads the file despite this error: a missing comma
  // before a new line, an unquoted key, a document without its outer braces.
  bool hjsonAccepts = false;
};

struct DuplicateKey {
  std::string path;  // e.g. "zero_optimization.stage"; array elements as "[0]"
  analysis::TextRange first, duplicate;
};

struct Document {
  Document() = default;
  Document(Document&&) = default;
  Document& operator=(Document&&) = default;
  Document(const Document&) = delete;  // nodes point into this document's arenas
  Document& operator=(const Document&) = delete;

  std::optional<Node> root;         // empty when the text holds no value at all
  std::vector<SyntaxError> errors;  // in source order
  std::vector<analysis::TextRange> comments;
  std::vector<analysis::TextRange> trailingCommas;
  std::vector<DuplicateKey> duplicates;  // in source order of the duplicate
  // Template placeholders read as values (json/placeholders.h), in source order; each value is
  // an Invalid node holding the placeholder's text.
  std::vector<analysis::TextRange> placeholders;

  // The storage the nodes refer to (moving the Document keeps its addresses).
  Arena<Member> memberArena;
  Arena<Node> elementArena;
  std::shared_ptr<Arena<char>> stringPool = std::make_shared<Arena<char>>();
  // A document reused after an edit (json/reparse.h) reads the strings it kept from the pools
  // of the revisions before it, and holds them.
  std::vector<std::shared_ptr<const Arena<char>>> olderPools;
};

struct ParseOptions {
  // Deeper objects and arrays are skipped (without recursion) and reported.
  // Values above kMaxDepthLimit are clamped to it.
  std::size_t maxDepth = 512;
  // Errors beyond this are dropped and a single note says so.
  std::size_t maxErrors = 200;
  // Looked at every few thousand members and elements; parse throws analysis::Cancelled.
  analysis::Cancellation cancel;
};

inline constexpr std::size_t kMaxDepthLimit = 1024;

Document parse(std::string_view text, const ParseOptions& options = {});

}  // namespace dsls::json

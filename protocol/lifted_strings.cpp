#include "protocol/lifted_strings.h"
#include "protocol/line_index.h"

#include <algorithm>
#include <cstdint>

namespace dsls::protocol {
namespace {

constexpr std::size_t kBad = static_cast<std::size_t>(-1);
constexpr std::size_t kMaxScanDepth = 1024;

int hexValue(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The four hex digits after "\u" at `p`, or -1.
long hex4(const unsigned char* p, const unsigned char* end) {
  if (end - p < 4) return -1;
  long v = 0;
  for (int i = 0; i < 4; ++i) {
    int h = hexValue(p[i]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

unsigned char* putUtf8(unsigned char* o, std::uint32_t cp) {
  if (cp < 0x80) {
    *o++ = static_cast<unsigned char>(cp);
  } else if (cp < 0x800) {
    *o++ = static_cast<unsigned char>(0xC0 | (cp >> 6));
    *o++ = static_cast<unsigned char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *o++ = static_cast<unsigned char>(0xE0 | (cp >> 12));
    *o++ = static_cast<unsigned char>(0x80 | ((cp >> 6) & 0x3F));
    *o++ = static_cast<unsigned char>(0x80 | (cp & 0x3F));
  } else {
    *o++ = static_cast<unsigned char>(0xF0 | (cp >> 18));
    *o++ = static_cast<unsigned char>(0x80 | ((cp >> 12) & 0x3F));
    *o++ = static_cast<unsigned char>(0x80 | ((cp >> 6) & 0x3F));
    *o++ = static_cast<unsigned char>(0x80 | (cp & 0x3F));
  }
  return o;
}

// Decodes "\u" escapes at `p` (just after the backslash and 'u'), a surrogate pair included.
// Returns the input consumed, or 0 when the escape is malformed.
std::size_t decodeUnicodeEscape(const unsigned char* p, const unsigned char* end, unsigned char*& o) {
  long hi = hex4(p, end);
  if (hi < 0 || (hi >= 0xDC00 && hi <= 0xDFFF)) return 0;
  if (hi < 0xD800 || hi > 0xDBFF) {
    o = putUtf8(o, static_cast<std::uint32_t>(hi));
    return 4;
  }
  if (end - p < 10 || p[4] != '\\' || p[5] != 'u') return 0;
  long lo = hex4(p + 6, end);
  if (lo < 0xDC00 || lo > 0xDFFF) return 0;
  o = putUtf8(o, 0x10000u + ((static_cast<std::uint32_t>(hi) - 0xD800u) << 10) + (static_cast<std::uint32_t>(lo) - 0xDC00u));
  return 10;
}

char simpleEscape(unsigned char c) {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '/': return '/';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    default: return 0;
  }
}

// Decodes the contents of a JSON string (between its quotes) to `out`, which may be the input's
// own start: the output never overtakes the input. Returns the decoded length or kBad.
std::size_t decodeString(const char* begin, const char* end, char* out) {
  auto p = reinterpret_cast<const unsigned char*>(begin);
  auto e = reinterpret_cast<const unsigned char*>(end);
  auto o = reinterpret_cast<unsigned char*>(out);
  auto start = o;
  while (p < e) {
    unsigned char c = *p;
    if (c >= 0x20 && c < 0x80 && c != '\\') {
      *o++ = c;
      ++p;
    } else if (c == '\\') {
      if (e - p < 2) return kBad;
      if (p[1] == 'u') {
        std::size_t used = decodeUnicodeEscape(p + 2, e, o);
        if (!used) return kBad;
        p += 2 + used;
      } else {
        char s = simpleEscape(p[1]);
        if (!s) return kBad;
        *o++ = static_cast<unsigned char>(s);
        p += 2;
      }
    } else if (c < 0x20) {
      return kBad;  // a raw control character is not allowed in a JSON string
    } else {
      // The line index's check of a sequence: 1 for a byte that starts none.
      const std::size_t n =
          utf8SequenceLength(std::string_view(reinterpret_cast<const char*>(p), static_cast<std::size_t>(e - p)), 0);
      if (n < 2) return kBad;
      for (std::size_t i = 0; i < n; ++i) *o++ = p[i];
      p += n;
    }
  }
  return static_cast<std::size_t>(o - start);
}

bool decodeTo(std::string_view encoded, std::string& out) {
  out.resize(encoded.size());
  std::size_t n = decodeString(encoded.data(), encoded.data() + encoded.size(), out.data());
  if (n == kBad) return false;
  out.resize(n);
  return true;
}

// Where a string that starts at `open` (its opening quote) ends: the index of its closing quote.
std::size_t closingQuote(std::string_view body, std::size_t open) {
  for (std::size_t i = open + 1; i < body.size(); ++i) {
    if (body[i] == '\\') ++i;
    else if (body[i] == '"') return i;
  }
  return std::string_view::npos;
}

struct Candidate {
  std::vector<PathStep> path;
  std::size_t begin = 0, end = 0;  // the contents, between the quotes
  bool superseded = false;         // a later duplicate key replaces it
};

struct Frame {
  bool array = false;
  bool expectKey = false;
  std::size_t index = 0;
  std::string key;
  // Candidates below each key of this object, so a duplicate key can drop them.
  std::vector<std::pair<std::string, std::size_t>> liftedUnder;
};

class Scanner {
 public:
  Scanner(std::string_view body, std::size_t minBytes) : body_(body), minBytes_(minBytes) {}

  // Finds the candidates; false when the text is malformed where the scan needs it.
  bool run() {
    for (std::size_t i = 0; i < body_.size(); ++i) {
      char c = body_[i];
      if (c == '"') {
        std::size_t close = closingQuote(body_, i);
        if (close == std::string_view::npos || !onString(i + 1, close)) return false;
        i = close;
      } else if (c == '{' || c == '[') {
        // parseOwnedMessage refuses deeper bodies first; this keeps a direct caller bounded too.
        if (frames_.size() >= kMaxScanDepth) return false;
        frames_.push_back(Frame{c == '[', c == '{', 0, {}, {}});
      } else if (c == '}' || c == ']') {
        if (frames_.empty()) return false;
        frames_.pop_back();
      } else if (c == ',' && !frames_.empty()) {
        Frame& top = frames_.back();
        if (top.array) ++top.index;
        else top.expectKey = true;
      } else if (c == ':' && !frames_.empty()) {
        frames_.back().expectKey = false;
      }
    }
    return true;
  }

  std::vector<Candidate>& candidates() { return candidates_; }

 private:
  bool onString(std::size_t begin, std::size_t end) {
    if (!frames_.empty() && !frames_.back().array && frames_.back().expectKey) {
      Frame& top = frames_.back();
      if (!decodeTo(body_.substr(begin, end - begin), top.key)) return false;
      for (auto& [key, index] : top.liftedUnder)
        if (key == top.key) candidates_[index].superseded = true;
      return true;
    }
    if (end - begin < minBytes_ || frames_.empty()) return true;
    Candidate candidate{{}, begin, end, false};
    for (Frame& frame : frames_) {
      if (frame.array) candidate.path.emplace_back(frame.index);
      else {
        candidate.path.emplace_back(frame.key);
        frame.liftedUnder.emplace_back(frame.key, candidates_.size());
      }
    }
    candidates_.push_back(std::move(candidate));
    return true;
  }

  std::string_view body_;
  std::size_t minBytes_;
  std::vector<Frame> frames_;
  std::vector<Candidate> candidates_;
};

}  // namespace

LiftOutcome liftLargeStrings(std::string& body, LiftedBody& out, std::size_t minBytes) {
  if (body.size() < minBytes) return LiftOutcome::None;
  Scanner scanner(body, minBytes);
  if (!scanner.run()) return LiftOutcome::None;
  std::vector<Candidate>& all = scanner.candidates();
  all.erase(std::remove_if(all.begin(), all.end(), [](const Candidate& c) { return c.superseded; }), all.end());
  if (all.empty()) return LiftOutcome::None;

  auto largest = std::max_element(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) {
    return a.end - a.begin < b.end - b.begin;
  });
  out.strings.clear();
  out.strings.resize(all.size());
  // Every other value is decoded to its own string first, while the body is intact.
  for (std::size_t i = 0; i < all.size(); ++i) {
    out.strings[i].path = std::move(all[i].path);
    if (&all[i] == &*largest) continue;
    if (!decodeTo(std::string_view(body).substr(all[i].begin, all[i].end - all[i].begin), out.strings[i].value))
      return LiftOutcome::None;
  }
  out.envelope.clear();
  std::size_t from = 0;
  for (const Candidate& c : all) {
    out.envelope.append(body, from, c.begin - from);
    from = c.end;
  }
  out.envelope.append(body, from, std::string::npos);

  // The largest value is decoded to the front of the body's own buffer, which it then becomes.
  std::size_t n = decodeString(body.data() + largest->begin, body.data() + largest->end, body.data());
  if (n == kBad) return LiftOutcome::Malformed;
  body.resize(n);
  // Escapes can make the body much longer than the text (a tokenizer's "\u0120" six times
  // its character); the room they took is given back before the document is analysed.
  if (body.capacity() - n > n / 8) body.shrink_to_fit();
  out.strings[static_cast<std::size_t>(largest - all.begin())].value = std::move(body);
  body = std::string();
  return LiftOutcome::Lifted;
}

}  // namespace dsls::protocol

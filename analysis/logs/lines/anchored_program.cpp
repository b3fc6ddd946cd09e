#include "analysis/logs/lines/anchored_program.h"

#include <algorithm>
#include <string>

namespace dsls::logs {

namespace {

constexpr std::size_t kMaxInsts = 4096;
constexpr int kMaxGroups = 15;

using ByteSet = std::array<std::uint64_t, 4>;

void add(ByteSet& s, unsigned b) { s[b >> 6] |= std::uint64_t{1} << (b & 63); }
void addRange(ByteSet& s, unsigned lo, unsigned hi) {
  for (unsigned b = lo; b <= hi; ++b) add(s, b);
}
bool has(const ByteSet& s, unsigned char b) { return (s[b >> 6] >> (b & 63)) & 1; }
ByteSet complement(ByteSet s) {
  for (auto& w : s) w = ~w;
  return s;
}
void addAll(ByteSet& s, const ByteSet& t) {
  for (std::size_t i = 0; i < s.size(); ++i) s[i] |= t[i];
}

// RE2's Perl classes, ASCII only as in its Latin-1 mode.
ByteSet perlClass(char letter) {
  ByteSet s{};
  switch (letter) {
    case 'd': case 'D': addRange(s, '0', '9'); break;
    case 'w': case 'W':
      addRange(s, '0', '9');
      addRange(s, 'A', 'Z');
      addRange(s, 'a', 'z');
      add(s, '_');
      break;
    default:  // s, S
      for (char c : std::string_view("\t\n\f\r ")) add(s, static_cast<unsigned char>(c));
  }
  return letter >= 'A' && letter <= 'Z' ? complement(s) : s;
}

bool isPerlClass(char c) { return std::string_view("dDwWsS").find(c) != std::string_view::npos; }
bool isAsciiAlnum(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

// The byte an escape such as "\t" or "\[" stands for; -1 outside the subset.
int escapedByte(char c) {
  switch (c) {
    case 't': return '\t';
    case 'n': return '\n';
    case 'r': return '\r';
    case 'f': return '\f';
    default: break;
  }
  const auto u = static_cast<unsigned char>(c);
  return u > 0x20 && u < 0x7f && !isAsciiAlnum(c) && c != '_' ? u : -1;
}

struct Node {
  enum Kind { Set, Concat, Alt, Repeat, Capture, Empty } kind = Empty;
  ByteSet set{};
  std::vector<Node> kids;
  int min = 0, max = 0;  // Repeat; max -1: unbounded
  bool greedy = true;
  int group = 0;  // Capture
};

bool nullable(const Node& n) {
  switch (n.kind) {
    case Node::Set: return false;
    case Node::Concat:
      for (const Node& k : n.kids)
        if (!nullable(k)) return false;
      return true;
    case Node::Alt:
      for (const Node& k : n.kids)
        if (nullable(k)) return true;
      return false;
    case Node::Repeat: return n.min == 0 || nullable(n.kids[0]);
    case Node::Capture: return nullable(n.kids[0]);
    default: return true;
  }
}

// A recursive-descent parser for the subset; any other syntax sets `ok` to false.
class Parser {
 public:
  Parser(std::string_view p, bool boundariesHold) : p_(p), boundariesHold_(boundariesHold) {}
  bool ok = true;
  int groups = 0;

  Node parseAll() {
    Node n = alternation();
    if (i_ != p_.size()) ok = false;
    return n;
  }

 private:
  std::string_view p_;
  std::size_t i_ = 0;
  bool boundariesHold_;  // \b read as matching the empty text (see compileLoose)

  bool more() const { return i_ < p_.size(); }
  char peek() const { return p_[i_]; }

  Node alternation() {
    Node alt;
    alt.kind = Node::Alt;
    alt.kids.push_back(concatenation());
    while (ok && more() && peek() == '|') {
      ++i_;
      alt.kids.push_back(concatenation());
    }
    return alt.kids.size() == 1 ? std::move(alt.kids[0]) : alt;
  }

  Node concatenation() {
    Node cat;
    cat.kind = Node::Concat;
    while (ok && more() && peek() != '|' && peek() != ')') {
      Node atomNode = atom();
      if (ok && more()) atomNode = quantified(std::move(atomNode));
      cat.kids.push_back(std::move(atomNode));
    }
    return cat;
  }

  bool number(int& out) {
    const std::size_t start = i_;
    out = 0;
    while (more() && peek() >= '0' && peek() <= '9' && out <= 1000) out = out * 10 + (p_[i_++] - '0');
    return i_ > start && out <= 1000;
  }

  Node quantified(Node a) {
    int min = 0, max = -1;
    switch (peek()) {
      case '*': break;
      case '+': min = 1; break;
      case '?': max = 1; break;
      case '{': {
        ++i_;
        if (!number(min)) return fail();
        max = min;
        if (more() && peek() == ',') {
          ++i_;
          max = -1;
          if (more() && peek() != '}' && !number(max)) return fail();
        }
        if (!more() || peek() != '}' || (max >= 0 && max < min)) return fail();
        break;
      }
      default: return a;
    }
    ++i_;
    Node r;
    r.kind = Node::Repeat;
    r.min = min;
    r.max = max;
    if (more() && peek() == '?') {
      r.greedy = false;
      ++i_;
    }
    if (more() && std::string_view("*+?{").find(peek()) != std::string_view::npos) return fail();
    if (max < 0 && nullable(a)) return fail();  // an empty loop: RE2's rules there are its own
    r.kids.push_back(std::move(a));
    return r;
  }

  Node fail() {
    ok = false;
    return {};
  }

  Node setNode(const ByteSet& s) {
    Node n;
    n.kind = Node::Set;
    n.set = s;
    return n;
  }

  Node atom() {
    const char c = p_[i_++];
    switch (c) {
      case '(': return group();
      case '[': return byteClass();
      case '.': return setNode(complement([] { ByteSet s{}; add(s, '\n'); return s; }()));
      case '\\': {
        if (!more()) return fail();
        const char e = p_[i_++];
        if (isPerlClass(e)) return setNode(perlClass(e));
        if (e == 'b' && boundariesHold_) return Node{};  // Empty
        const int b = escapedByte(e);
        if (b < 0) return fail();
        ByteSet s{};
        add(s, static_cast<unsigned>(b));
        return setNode(s);
      }
      default: break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80 || std::string_view("^$*+?{").find(c) != std::string_view::npos) return fail();
    ByteSet s{};
    add(s, u);
    return setNode(s);
  }

  Node group() {
    Node g;
    if (p_.substr(i_).starts_with("?:")) {
      i_ += 2;
      g = alternation();
    } else {
      if (p_.substr(i_).starts_with("?P<")) {
        const std::size_t close = p_.find('>', i_);
        if (close == std::string_view::npos) return fail();
        i_ = close + 1;
      } else if (more() && peek() == '?') {
        return fail();  // flags and other group forms
      }
      Node cap;
      cap.kind = Node::Capture;
      cap.group = ++groups;
      if (groups > kMaxGroups) return fail();
      cap.kids.push_back(alternation());
      g = std::move(cap);
    }
    if (!more() || peek() != ')') return fail();
    ++i_;
    return g;
  }

  // One member of a class: a byte, or -1 after adding a Perl class; -2 outside the subset.
  int classMember(ByteSet& s) {
    const char c = p_[i_++];
    if (c == '[' && more() && peek() == ':') return -2;  // POSIX classes
    if (c != '\\') return static_cast<unsigned char>(c) < 0x80 ? static_cast<unsigned char>(c) : -2;
    if (!more()) return -2;
    const char e = p_[i_++];
    if (isPerlClass(e)) {
      addAll(s, perlClass(e));
      return -1;
    }
    const int b = escapedByte(e);
    return b < 0 ? -2 : b;
  }

  Node byteClass() {
    ByteSet s{};
    const bool negated = more() && peek() == '^';
    if (negated) ++i_;
    bool first = true;
    while (more() && (peek() != ']' || first)) {
      first = false;
      const int lo = classMember(s);
      if (lo == -2) return fail();
      if (lo == -1) continue;
      if (i_ + 1 < p_.size() && peek() == '-' && p_[i_ + 1] != ']') {
        ++i_;
        const int hi = classMember(s);
        if (hi < lo) return fail();
        addRange(s, static_cast<unsigned>(lo), static_cast<unsigned>(hi));
      } else {
        add(s, static_cast<unsigned>(lo));
      }
    }
    if (!more()) return fail();
    ++i_;
    return setNode(negated ? complement(s) : s);
  }
};

}  // namespace

// Emits the instructions of a parsed pattern; a program that grows too large is refused.
struct ProgramBuilder {
  AnchoredProgram& out;
  bool ok = true;

  int here() const { return static_cast<int>(out.insts_.size()); }
  int emit(AnchoredProgram::Op op, int x = 0, int y = 0) {
    if (out.insts_.size() >= kMaxInsts) ok = false;
    out.insts_.push_back({op, x, y});
    return here() - 1;
  }
  // A choice: the preferred branch first (RE2's leftmost-first order), patched later.
  int split(bool greedy, int body, int skip) { return greedy ? emit(AnchoredProgram::Op::Split, body, skip)
                                                             : emit(AnchoredProgram::Op::Split, skip, body); }
  void patchSkip(int at, bool greedy, int target) {
    (greedy ? out.insts_[static_cast<std::size_t>(at)].y : out.insts_[static_cast<std::size_t>(at)].x) = target;
  }

  void node(const Node& n) {
    using Op = AnchoredProgram::Op;
    if (!ok) return;
    switch (n.kind) {
      case Node::Set:
        out.classes_.push_back(n.set);
        emit(Op::Class, static_cast<int>(out.classes_.size()) - 1);
        return;
      case Node::Concat:
        for (const Node& k : n.kids) node(k);
        return;
      case Node::Alt: alternation(n); return;
      case Node::Capture:
        emit(Op::Save, 2 * n.group);
        node(n.kids[0]);
        emit(Op::Save, 2 * n.group + 1);
        return;
      case Node::Repeat: repeat(n); return;
      case Node::Empty: return;
    }
  }

  void alternation(const Node& n) {
    std::vector<int> toEnd;
    for (std::size_t k = 0; k + 1 < n.kids.size() && ok; ++k) {
      const int s = emit(AnchoredProgram::Op::Split, here() + 1, 0);
      node(n.kids[k]);
      toEnd.push_back(emit(AnchoredProgram::Op::Jump));
      out.insts_[static_cast<std::size_t>(s)].y = here();
    }
    node(n.kids.back());
    for (int j : toEnd) out.insts_[static_cast<std::size_t>(j)].x = here();
  }

  void repeat(const Node& n) {
    for (int k = 0; k < n.min && ok; ++k) node(n.kids[0]);
    if (n.max < 0) {
      const int loop = split(n.greedy, here() + 1, 0);
      node(n.kids[0]);
      emit(AnchoredProgram::Op::Jump, loop);
      patchSkip(loop, n.greedy, here());
      return;
    }
    std::vector<int> skips;
    for (int k = n.min; k < n.max && ok; ++k) {
      skips.push_back(split(n.greedy, here() + 1, 0));
      node(n.kids[0]);
    }
    for (int s : skips) patchSkip(s, n.greedy, here());
  }
};

std::optional<AnchoredProgram> AnchoredProgram::compile(std::string_view pattern) { return build(pattern, false); }

std::optional<AnchoredProgram> AnchoredProgram::compileLoose(std::string_view pattern) { return build(pattern, true); }

std::optional<AnchoredProgram> AnchoredProgram::build(std::string_view pattern, bool boundariesHold) {
  Parser parser(pattern, boundariesHold);
  const Node root = parser.parseAll();
  if (!parser.ok) return std::nullopt;
  AnchoredProgram program;
  program.groups_ = parser.groups;
  ProgramBuilder b{program};
  b.emit(Op::Save, 0);
  b.node(root);
  b.emit(Op::Save, 1);
  b.emit(Op::Match);
  if (!b.ok) return std::nullopt;
  return program;
}

void AnchoredProgram::run(std::string_view text, Run& r) const {
  // The threads of the automaton alive after each byte, as pcs of Class instructions (the
  // others are followed at once); Match consumes nothing.
  std::vector<char> seen(insts_.size());
  std::vector<int> next, todo;
  auto close = [&](int start, std::vector<int>& into) {
    todo.assign(1, start);
    while (!todo.empty()) {
      const int pc = todo.back();
      todo.pop_back();
      if (seen[static_cast<std::size_t>(pc)]) continue;
      seen[static_cast<std::size_t>(pc)] = 1;
      const Inst& in = insts_[static_cast<std::size_t>(pc)];
      switch (in.op) {
        case Op::Class: into.push_back(pc); break;
        case Op::Split:
          todo.push_back(in.y);
          todo.push_back(in.x);
          break;
        case Op::Jump: todo.push_back(in.x); break;
        case Op::Save: todo.push_back(pc + 1); break;
        case Op::Match: r.matchReachable = true; break;
      }
    }
  };
  close(0, r.live);
  for (const char ch : text) {
    if (r.live.empty()) break;
    std::fill(seen.begin(), seen.end(), 0);
    next.clear();
    for (int pc : r.live)
      if (has(classes_[static_cast<std::size_t>(insts_[static_cast<std::size_t>(pc)].x)], static_cast<unsigned char>(ch)))
        close(pc + 1, next);
    r.live.swap(next);
    ++r.read;
  }
}

AnchoredProgram::ByteSet AnchoredProgram::continuations(std::string_view text) const {
  Run r;
  run(text, r);
  ByteSet out{};
  for (int pc : r.live) addAll(out, classes_[static_cast<std::size_t>(insts_[static_cast<std::size_t>(pc)].x)]);
  return out;
}

std::optional<std::size_t> AnchoredProgram::deadAfter(std::string_view text) const {
  Run r;
  run(text, r);
  if (r.matchReachable || !r.live.empty()) return std::nullopt;
  return r.read;
}

bool AnchoredProgram::contains(const ByteSet& set, unsigned char b) { return has(set, b); }

bool AnchoredProgram::treatsDigitsAlike() const {
  for (const ByteSet& set : classes_)
    for (unsigned char d = '1'; d <= '9'; ++d)
      if (has(set, d) != has(set, '0')) return false;
  return true;
}

}  // namespace dsls::logs

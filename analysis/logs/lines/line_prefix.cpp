#include "analysis/logs/lines/line_prefix.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>

#include "analysis/logs/lines/anchored_program.h"
#include "analysis/logs/lines/literal_prefilter.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs {

const std::vector<PrefixFamily>& prefixFamilies() {
  static const std::vector<PrefixFamily> table = {
#define DSLS_PREFIX(name, kind, yields, first, needs, pattern) {name, PrefixKind::kind, yields, first, needs, pattern},
#include "analysis/logs/lines/line_prefix_table.inc"
#undef DSLS_PREFIX
  };
  return table;
}

namespace {

constexpr std::size_t kPrefixWindow = 512;  // prefixes are short; the rest of a long line is not scanned
constexpr int kMaxPeels = 8;

enum Slot : std::size_t { kRank, kLocalRank, kHost, kDevice, kPid, kTs, kLevel, kSource, kMsg, kSlots };

constexpr std::array<std::pair<std::string_view, unsigned>, kSlots> kSlotNames = {{
    {"rank", kYieldRank},
    {"local_rank", kYieldLocalRank},
    {"host", kYieldHost},
    {"device", kYieldDevice},
    {"pid", kYieldPid},
    {"ts", kYieldTimestamp},
    {"level", kYieldLevel},
    {"source", kYieldSource},
    {"msg", kYieldNone},
}};

RE2::Options prefixOptions() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  return o;
}

// Which rows may match next: all of them at the start of the line, no Leading row once a
// prefix yielded something, only Marker rows after a logger's header.
enum class PeelState { Start, Stacked, AfterLogger };

bool allowedIn(PrefixKind kind, PeelState state) {
  switch (state) {
    case PeelState::Start: return true;
    case PeelState::Stacked: return kind != PrefixKind::Leading;
    default: return kind == PrefixKind::Marker;
  }
}

struct CompiledRow {
  std::unique_ptr<RE2> re;
  // The pattern's automaton: which bytes could make a match longer. Remembered tags rest on
  // it (not for Logger rows: their headers hold timestamps, and rarely repeat), and so do
  // remembered parses through any row.
  std::optional<AnchoredProgram> program;
  // The same with \b taken to hold, for every row: where it dies, the row cannot match.
  std::optional<AnchoredProgram> loose;
  int groups = 0;
  std::array<int, kSlots> slotGroup{};  // capture index per slot, 0 when absent
  // A cheap test that rules the row out: the row's first bytes, and the literal every
  // match starts with (from RE2's PossibleMatchRange).
  std::array<bool, 256> first{};
  std::string literal;
  unsigned char nextLo = 0, nextHi = 255;  // the byte after `literal`
  std::optional<RareByteLiteral> needs;    // the row's declared literal
  bool logger = false;                     // a Logger row
  bool digitsAlike = false;                // every test of the row treats all ten digits alike
  // The test on the first literal.size() + 1 bytes of `s` (the needed literal aside).
  bool startsHere(std::string_view s) const {
    if (s.size() <= literal.size() || !first[static_cast<unsigned char>(s[0])] ||
        s.compare(0, literal.size(), literal) != 0)
      return false;
    const auto next = static_cast<unsigned char>(s[literal.size()]);
    return next >= nextLo && next <= nextHi;
  }
  bool hasNeeded(std::string_view window) const { return !needs || needs->in(window); }
};

// Each row's groups must be exactly the yields it declares.
void checkYields(const PrefixFamily& f) {
  const RE2 re{std::string(f.pattern), prefixOptions()};
  if (!re.ok()) throw std::logic_error("bad line prefix pattern " + std::string(f.name) + ": " + re.error());
  unsigned declared = 0;
  for (const auto& [name, index] : re.NamedCapturingGroups()) {
    std::size_t slot = 0;
    while (slot < kSlots && kSlotNames[slot].first != name) ++slot;
    if (slot == kSlots) throw std::logic_error("line prefix " + std::string(f.name) + ": unknown group " + name);
    declared |= kSlotNames[slot].second;
  }
  if (declared != (f.yields & ~static_cast<unsigned>(kCheckHostName)) || static_cast<std::size_t>(re.NumberOfCapturingGroups()) != re.NamedCapturingGroups().size())
    throw std::logic_error("line prefix " + std::string(f.name) + ": groups differ from its declared yields");
}

// The declared first bytes, checked against the range RE2 derives from the pattern.
void setGate(const PrefixFamily& f, CompiledRow& c) {
  std::string cls(1, '[');
  cls.append(f.firstBytes).append(1, ']');
  const RE2 firstClass(cls, prefixOptions());
  if (!firstClass.ok()) throw std::logic_error("line prefix " + std::string(f.name) + ": bad first bytes");
  std::string lo, hi;
  const bool ranged = c.re->PossibleMatchRange(&lo, &hi, 10) && !lo.empty() && !hi.empty();
  for (unsigned b = 0; b < 256; ++b) {
    const char ch = static_cast<char>(b);
    if (!RE2::FullMatch(re2::StringPiece(&ch, 1), firstClass)) continue;
    if (ranged && (ch < lo[0] || ch > hi[0]))
      throw std::logic_error("line prefix " + std::string(f.name) + ": a first byte its pattern cannot start with");
    c.first[b] = true;
  }
  if (!ranged) return;
  std::size_t k = 0;
  while (k < lo.size() && k < hi.size() && lo[k] == hi[k]) ++k;
  c.literal = lo.substr(0, k);
  if (k < lo.size() && k < hi.size()) {
    c.nextLo = static_cast<unsigned char>(lo[k]);
    c.nextHi = static_cast<unsigned char>(hi[k]);
  }
}

// The pattern with "\(" read as "(": where a needed literal is looked for.
std::string withoutEscapes(std::string_view pattern) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\' && i + 1 < pattern.size() && !text::isWordChar(pattern[i + 1])) ++i;
    out += pattern[i];
  }
  return out;
}

bool hasDigit(std::string_view s) { return std::any_of(s.begin(), s.end(), text::isDigit); }

// Whether a digit put in place of another can change any test of the row: its first bytes,
// its leading literal and the byte range after it, its needed literal and its automaton
// (the loose one decides where it dies; \b treats digits alike).
bool treatsDigitsAlike(const CompiledRow& c, const PrefixFamily& f) {
  for (unsigned char d = '1'; d <= '9'; ++d)
    if (c.first[d] != c.first['0'] || (d >= c.nextLo && d <= c.nextHi) != ('0' >= c.nextLo && '0' <= c.nextHi))
      return false;
  return !hasDigit(c.literal) && !hasDigit(f.needs) && c.loose && c.loose->treatsDigitsAlike() &&
         (!c.program || c.program->treatsDigitsAlike());
}

CompiledRow compileRow(const PrefixFamily& f) {
  CompiledRow c;
  c.re = std::make_unique<RE2>(std::string(f.pattern), prefixOptions());
  if (!c.re->ok()) throw std::logic_error("bad line prefix pattern " + std::string(f.name) + ": " + c.re->error());
  c.groups = c.re->NumberOfCapturingGroups();
  if (c.groups >= 16) throw std::logic_error("line prefix " + std::string(f.name) + ": too many groups");
  c.program = AnchoredProgram::compile(f.pattern);
  c.loose = AnchoredProgram::compileLoose(f.pattern);
  if (c.program && c.program->groups() != c.groups)
    throw std::logic_error("line prefix " + std::string(f.name) + ": its automaton counts its groups differently");
  for (const auto& [name, index] : c.re->NamedCapturingGroups())
    for (std::size_t slot = 0; slot < kSlots; ++slot)
      if (kSlotNames[slot].first == name) c.slotGroup[slot] = index;
  setGate(f, c);
  if (withoutEscapes(f.pattern).find(f.needs) == std::string::npos)
    throw std::logic_error("line prefix " + std::string(f.name) + ": its needed literal is not in its pattern");
  if (!f.needs.empty()) c.needs.emplace(f.needs);
  c.logger = f.kind == PrefixKind::Logger;
  c.digitsAlike = treatsDigitsAlike(c, f);
  return c;
}

struct PrefixMatcher {
  std::vector<CompiledRow> rows;
  // Per peel state and first byte: the rows that may match there (bit i: row i), so a line
  // is tested against the few rows it can start, in table order.
  std::array<std::array<std::uint32_t, 256>, 3> candidates{};
  // Every row treats all digits alike: remembered parses hold for lines that differ in digits.
  bool digitsAlike = true;

  PrefixMatcher() {
    const auto& table = prefixFamilies();
    if (table.size() > 32) throw std::logic_error("line prefix table: at most 32 rows (PrefixView::familyMask)");
    for (const PrefixFamily& f : table) {
      checkYields(f);
      rows.push_back(compileRow(f));
      // A row that tells digits apart ("[PG ID 2 ...]" is not group 0) but is gated by a
      // needed literal without digits can only decide lines holding that literal: a parse
      // that tried it is not remembered (matchAt), one that it was ruled out of still holds.
      const bool gated = !f.needs.empty() && !hasDigit(f.needs);
      digitsAlike = digitsAlike && (rows.back().digitsAlike || gated);
    }
    for (PeelState state : {PeelState::Start, PeelState::Stacked, PeelState::AfterLogger})
      for (std::size_t row = 0; row < rows.size(); ++row)
        if (allowedIn(table[row].kind, state))
          for (unsigned b = 0; b < 256; ++b)
            if (rows[row].first[b]) candidates[static_cast<std::size_t>(state)][b] |= 1u << row;
  }

  static const PrefixMatcher& shared() {
    static const PrefixMatcher instance;
    return instance;
  }
};

std::optional<long long> number(std::string_view digits) {
  if (digits.empty() || digits.size() > 12) return std::nullopt;
  bool negative = digits[0] == '-';
  if (negative) digits.remove_prefix(1);
  if (digits.empty()) return std::nullopt;
  long long v = 0;
  for (char c : digits) {
    if (!text::isDigit(c)) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return negative ? -v : v;
}

// glog's one-letter levels as words.
std::string_view levelWord(std::string_view level) {
  if (level.size() != 1) return level;
  switch (level[0]) {
    case 'I': return "INFO";
    case 'W': return "WARNING";
    case 'E': return "ERROR";
    case 'F': return "FATAL";
    default: return level;
  }
}

// pdsh hosts: "localhost", an IPv4 address, or a name with letters and a digit that is not
// an exception name ("RuntimeError2: "); "ninja: " and "2024-02-03: " are not hosts.
bool plausibleHost(std::string_view host) {
  if (host == "localhost") return true;
  bool digit = false, alpha = false;
  int dots = 0;
  for (char c : host) {
    if (text::isDigit(c)) digit = true;
    else if (text::isAlpha(c)) alpha = true;
    else if (c == '.') ++dots;
  }
  if (!digit) return false;
  if (!alpha) return dots == 3 && host.find_first_not_of("0123456789.") == std::string_view::npos;
  // Error codes of the Ascend CANN runtime ("EL0004: ...", "EJ0001: ..."): two capitals, four digits.
  if (host.size() == 6 && text::isAlpha(host[0]) && text::isAlpha(host[1]) && host[0] <= 'Z' && host[1] <= 'Z' &&
      host.find_first_not_of("0123456789", 2) == std::string_view::npos)
    return false;
  return !(host.ends_with("Error") || host.ends_with("Exception") || host.ends_with("Warning"));
}

using Pieces = std::array<re2::StringPiece, 16>;

std::string_view piece(const Pieces& p, int group) {
  if (group == 0 || p[static_cast<std::size_t>(group)].data() == nullptr) return {};
  return {p[static_cast<std::size_t>(group)].data(), p[static_cast<std::size_t>(group)].size()};
}

// Takes what one matched row yields; a value from an earlier (outer) prefix is kept, but a
// global rank replaces one taken from a local-rank prefix. False when the match is refused.
// What a matched row yields, by slot: views into the line.
using SlotValues = std::array<std::string_view, kSlots>;

SlotValues slotValues(const Pieces& p, const std::array<int, kSlots>& g) {
  SlotValues v;
  for (std::size_t slot = 0; slot < kSlots; ++slot) v[slot] = piece(p, g[slot]);
  return v;
}

// The digits each number of a PrefixView was read from (views into the line).
struct NumberSources {
  std::string_view rank, localRank, cudaDevice, pid;
  // A number captured (taken or refused) whose reading rests on its digits' values: a sign
  // among them ("-0" is rank 0, "-1" no rank) or more than 9 digits (range checks). A line
  // whose digits differ from these might parse otherwise: the parse is not remembered.
  bool readByValue = false;
};

bool readByValue(std::string_view capture) {
  return capture.size() > 9 || !std::all_of(capture.begin(), capture.end(), text::isDigit);
}

bool apply(const SlotValues& v, const PrefixFamily& f, PrefixView& out, NumberSources& from) {
  const std::string_view host = v[kHost];
  if ((f.yields & kCheckHostName) && !plausibleHost(host)) return false;
  for (const Slot slot : {kRank, kLocalRank, kDevice, kPid})
    if (readByValue(v[slot])) from.readByValue = true;
  if (const auto r = number(v[kRank])) {
    // A rank of -1 is printed before the process group exists: no rank.
    if (*r >= 0 && *r < (1 << 30) && out.rankSource != RankSource::Global) {
      out.rank = static_cast<int>(*r);
      out.rankSource = RankSource::Global;
      out.rankFamily = f.name;
      from.rank = v[kRank];
    }
  }
  if (const auto l = number(v[kLocalRank]); l && *l < (1 << 30) && !out.localRank) {
    out.localRank = static_cast<int>(*l);
    from.localRank = v[kLocalRank];
    if (!out.rank) {
      out.rank = out.localRank;
      out.rankSource = RankSource::LocalPrefix;
      out.rankFamily = f.name;
      from.rank = v[kLocalRank];
    }
  }
  if (out.host.empty()) out.host = host;
  if (const auto d = number(v[kDevice]); d && !out.cudaDevice && *d < (1 << 30)) {
    out.cudaDevice = static_cast<int>(*d);
    from.cudaDevice = v[kDevice];
  }
  if (const auto pid = number(v[kPid]); pid && !out.pid) {
    out.pid = *pid;
    from.pid = v[kPid];
  }
  if (out.timestamp.empty()) out.timestamp = v[kTs];
  if (out.level.empty()) out.level = levelWord(v[kLevel]);
  if (out.source.empty()) out.source = v[kSource];
  return true;
}



// The captures remembered for this row and span, moved onto the span.
bool recall(const PrefixMemo::Slot& slot, std::size_t row, const re2::StringPiece& span, int groups, Pieces& p) {
  if (!slot.used || slot.row != row || std::string_view(span.data(), span.size()) != slot.text) return false;
  for (int g = 1; g <= groups; ++g) {
    const auto [offset, length] = slot.groups[static_cast<std::size_t>(g)];
    p[static_cast<std::size_t>(g)] = offset < 0 ? re2::StringPiece()
                                                : re2::StringPiece(span.data() + offset, static_cast<std::size_t>(length));
  }
  return true;
}

void remember(PrefixMemo::Slot& slot, std::size_t row, const re2::StringPiece& span, int groups, const Pieces& p) {
  slot.used = true;
  slot.row = row;
  slot.text.assign(span.data(), span.size());
  for (int g = 1; g <= groups; ++g) {
    const re2::StringPiece& v = p[static_cast<std::size_t>(g)];
    slot.groups[static_cast<std::size_t>(g)] =
        v.data() ? std::pair<int, int>{static_cast<int>(v.data() - span.data()), static_cast<int>(v.size())}
                 : std::pair<int, int>{-1, 0};
  }
}

// The short tags (Outer and Marker rows: "worker-3: ", "[rank5]: ") are matched and
// captured in one call. A logger's header has free-form parts: a DFA pass finds whether and
// where it matches, then the captures are taken on the matched span only, which is why
// they can be remembered.
// (The captures of the span equal those of the match on the whole window: the match RE2
// prefers there is also the one it prefers among those ending where it ends.)
bool capture(const CompiledRow& c, std::size_t row, const re2::StringPiece& window, Pieces& p, PrefixMemo* memo) {
  const bool remembered = c.logger && memo && memo->headersRepeat(row);
  if (c.groups > 0 && !remembered) return c.re->Match(window, 0, window.size(), RE2::ANCHOR_START, p.data(), c.groups + 1);
  if (!c.re->Match(window, 0, window.size(), RE2::ANCHOR_START, p.data(), 1)) return false;
  if (c.groups == 0) return true;
  const re2::StringPiece span = p[0];
  PrefixMemo::Slot* slot =
      span.size() <= PrefixMemo::kMaxBytes ? &memo->slotFor(row, std::string_view(span.data(), span.size())) : nullptr;
  const bool found = slot && recall(*slot, row, span, c.groups, p);
  memo->headerLookedUp(row, found);
  if (found) return true;
  if (!c.re->Match(span, 0, span.size(), RE2::ANCHOR_BOTH, p.data(), c.groups + 1)) return false;
  if (slot) remember(*slot, row, span, c.groups, p);
  return true;
}

// The row's match on the window: a remembered tag where one is proved to stand for it, else
// RE2's (then remembered, when the row's matches repeat).
bool matchRow(const CompiledRow& c, std::size_t row, const re2::StringPiece& window, Pieces& p, PrefixMemo* memo,
              bool& byTag) {
  byTag = false;
  if (memo && c.program && !c.logger) {
    if (const PrefixMemo::Tag* t = memo->findTag(row, std::string_view(window.data(), window.size()))) {
      memo->tagFound(row);
      p[0] = re2::StringPiece(window.data(), t->text.size());
      byTag = true;
      return recall(*t, row, p[0], c.groups, p);
    }
  }
  if (!capture(c, row, window, p, memo)) return false;
  if (memo && c.program && !c.logger) {
    const std::string_view matched(p[0].data(), p[0].size());
    if (PrefixMemo::Tag* t = memo->tagToFill(row, matched)) {
      remember(*t, row, p[0], c.groups, p);
      t->continuing = c.program->continuations(matched);
    }
  }
  return true;
}

}  // namespace

namespace {

// A tag is looked up at every peel: its first and last eight bytes and its length pick the
// slot, which costs a few instructions where a hash of every byte costs dozens. With `fold`,
// of the text with its digits as '0' (a chain's key).
std::uint64_t tagHash(std::size_t row, std::string_view text, bool fold = false) {
  std::uint64_t h = (text.size() + (row << 8)) * 0x9E3779B97F4A7C15ull;
  if (text.size() >= 8) {
    const std::uint64_t head = text::load8(text.data()), tail = text::load8(text.data() + text.size() - 8);
    h ^= (fold ? text::foldDigits(head) : head) * 0xC2B2AE3D27D4EB4Full;
    h ^= std::rotl((fold ? text::foldDigits(tail) : tail) * 0x165667B19E3779F9ull, 31);
  } else {
    for (const char c : text) h = (h ^ static_cast<unsigned char>(fold ? text::foldDigit(c) : c)) * 0x100000001B3ull;
  }
  // Multiplication carries low bits upwards only: fold the high bits down (murmur's finaliser).
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 33);
}

}  // namespace

// Two slots per tag (the least recently used one is refilled), so that two tags that
// hash alike do not push each other out on every line.
std::array<PrefixMemo::Tag*, 2> PrefixMemo::tagSlots(std::size_t row, std::string_view text) {
  const std::uint64_t h = tagHash(row, text);
  return {&tags_[h % kTagSlots], &tags_[(h >> 32) % kTagSlots]};
}

const PrefixMemo::Tag* PrefixMemo::findTag(std::size_t row, std::string_view window) {
  if (row >= kRows) return nullptr;
  for (const std::uint16_t length : rowStats_[row].lengths) {
    if (length == 0) break;
    if (length > window.size()) continue;
    const std::string_view head = window.substr(0, length);
    for (Tag* t : tagSlots(row, head)) {
      if (!t->used || t->row != row || t->text != head) continue;
      // A byte that could continue the match: RE2 might find a longer one on this line.
      if (length < window.size() && AnchoredProgram::contains(t->continuing, static_cast<unsigned char>(window[length])))
        break;
      t->lastUse = ++clock_;
      return t;
    }
  }
  return nullptr;
}

PrefixMemo::Tag* PrefixMemo::tagToFill(std::size_t row, std::string_view text) {
  if (row >= kRows || text.empty() || text.size() > kTagBytes) return nullptr;
  RowStats& r = rowStats_[row];
  // A row whose matches seldom repeat is not worth the automaton's time.
  if (r.stored >= 64 && r.hits < r.stored) return nullptr;
  auto it = std::find(r.lengths.begin(), r.lengths.end(), text.size());
  if (it == r.lengths.end()) it = std::find(r.lengths.begin(), r.lengths.end(), 0);
  if (it == r.lengths.end()) return nullptr;
  *it = static_cast<std::uint16_t>(text.size());
  ++r.stored;
  const auto [a, b] = tagSlots(row, text);
  Tag* t = !a->used || (b->used && a->lastUse <= b->lastUse) ? a : b;
  t->lastUse = ++clock_;
  return t;
}

std::array<PrefixMemo::Dead*, 2> PrefixMemo::deadSlots(std::size_t row, std::string_view text) {
  const std::uint64_t h = tagHash(row, text);
  return {&dead_[h % kDeadSlots], &dead_[(h >> 32) % kDeadSlots]};
}

std::size_t PrefixMemo::deadPrefix(std::size_t row, std::string_view window) {
  if (row >= kRows) return 0;
  RowStats& r = rowStats_[row];
  for (const std::uint16_t length : r.deadLengths) {
    if (length == 0) break;
    if (length > window.size()) continue;
    const std::string_view head = window.substr(0, length);
    for (Dead* d : deadSlots(row, head))
      if (d->used && d->row == row && d->text == head) {
        d->lastUse = ++clock_;
        ++r.deadHits;
        return length;
      }
  }
  return 0;
}

bool PrefixMemo::remembersDead(std::size_t row) const {
  // A row whose dead starts seldom repeat is not worth the automaton's time.
  return row < kRows && (rowStats_[row].deadStored < 64 || rowStats_[row].deadHits >= rowStats_[row].deadStored);
}

void PrefixMemo::rememberDead(std::size_t row, std::string_view start) {
  if (!remembersDead(row) || start.empty() || start.size() > kTagBytes) return;
  RowStats& r = rowStats_[row];
  auto it = std::find(r.deadLengths.begin(), r.deadLengths.end(), start.size());
  if (it == r.deadLengths.end()) it = std::find(r.deadLengths.begin(), r.deadLengths.end(), 0);
  if (it == r.deadLengths.end()) return;
  *it = static_cast<std::uint16_t>(start.size());
  ++r.deadStored;
  const auto [a, b] = deadSlots(row, start);
  Dead* d = !a->used || (b->used && a->lastUse <= b->lastUse) ? a : b;
  d->used = true;
  d->row = row;
  d->text.assign(start);
  d->lastUse = ++clock_;
}

bool PrefixMemo::headersRepeat(std::size_t row) const {
  if (row >= kRows) return false;
  const RowStats& r = rowStats_[row];
  return r.headerLookups < 64 || r.headerHits * 4 >= r.headerLookups;
}

void PrefixMemo::headerLookedUp(std::size_t row, bool found) {
  if (row >= kRows) return;
  ++rowStats_[row].headerLookups;
  if (found) ++rowStats_[row].headerHits;
}

PrefixMemo::Slot& PrefixMemo::slotFor(std::size_t row, std::string_view text) {
  return slots_[(std::hash<std::string_view>{}(text) + row * 0x9E3779B97F4A7C15ull) % kSlots];
}

namespace {

// What a parse looked at: the bytes its outcome rests on, and the rows ruled out by their
// needed literal alone. Not provable where a pattern ran (a remembered tag aside) or the
// line's end decided something.
struct ChainProof {
  bool provable = true;
  std::size_t seen = 0;
  std::uint32_t tagRows = 0;
  std::array<PrefixMemo::NeedsCheck, PrefixMemo::kChainNeeds> needs{};
  std::size_t needCount = 0;
  NumberSources numbers;
  // Rows RE2 matched (not a remembered tag): the proof holds where no byte after each match
  // could make it longer, which is asked of the automaton only when the parse is kept.
  struct MatchEnd {
    std::uint8_t row = 0;
    std::uint16_t at = 0, length = 0;
  };
  std::array<MatchEnd, 4> ends{};
  std::size_t endCount = 0;

  void see(std::size_t end) { seen = std::max(seen, end); }
  void matchedByPattern(std::size_t row, std::size_t at, std::size_t length) {
    if (endCount == ends.size() || at + length > UINT16_MAX) {
      provable = false;
      return;
    }
    ends[endCount++] = {static_cast<std::uint8_t>(row), static_cast<std::uint16_t>(at), static_cast<std::uint16_t>(length)};
  }
  void ruledOutByNeeds(std::size_t row, std::size_t offset) {
    if (needCount == needs.size() || offset > UINT16_MAX) {
      provable = false;
      return;
    }
    needs[needCount++] = {static_cast<std::uint8_t>(row), static_cast<std::uint16_t>(offset)};
  }
};

// Where the row's automaton dies on a window RE2 found no match in: remembered, so that the
// next window starting with those bytes is ruled out without RE2. 0 when it does not die.
std::size_t deadStart(const CompiledRow& c, std::size_t row, std::string_view window, PrefixMemo& memo) {
  if (!memo.remembersDead(row)) return 0;
  const std::optional<std::size_t> dead = c.program->deadAfter(window.substr(0, PrefixMemo::kTagBytes));
  if (!dead || *dead == 0) return 0;
  memo.rememberDead(row, window.substr(0, *dead));
  return *dead;
}

// Whether RE2 gives the same match on any text that starts with the match and then `next`:
// no match can be longer (see AnchoredProgram), and the shorter ones are the same.
bool noLongerMatch(const CompiledRow& c, std::string_view match, char next) {
  return c.program && !AnchoredProgram::contains(c.program->continuations(match), static_cast<unsigned char>(next));
}

// The first row, in table order, whose cheap tests pass and whose pattern matches at the
// start of `s`; table.size() when none does.
std::size_t matchAt(const PrefixMatcher& m, PeelState state, std::string_view line, std::string_view s, Pieces& p,
                    PrefixView& out, PrefixMemo* memo, ChainProof& proof) {
  const std::vector<PrefixFamily>& table = prefixFamilies();
  const std::size_t at = line.size() - s.size();
  const re2::StringPiece window(s.data(), std::min(s.size(), kPrefixWindow));
  proof.see(at + 1);  // the first byte picks the candidate rows
  for (std::uint32_t rows = m.candidates[static_cast<std::size_t>(state)][static_cast<unsigned char>(s[0])];
       rows != 0; rows &= rows - 1) {
    const auto r = static_cast<std::size_t>(std::countr_zero(rows));
    const CompiledRow& c = m.rows[r];
    const std::string_view windowText(window.data(), window.size());
    // A row that tells digits apart decides on their values from its first test on: a parse
    // that tried it is not remembered; one its needed literal ruled it out of still holds.
    if (!c.digitsAlike) {
      if (!c.hasNeeded(windowText)) {
        proof.ruledOutByNeeds(r, at);
        continue;
      }
      proof.provable = false;
    }
    if (s.size() <= c.literal.size()) proof.provable = false;  // the line's end rules the row out
    else proof.see(at + c.literal.size() + 1);
    if (!c.startsHere(s)) continue;
    if (!c.hasNeeded(windowText)) {
      proof.ruledOutByNeeds(r, at);
      continue;
    }
    if (const std::size_t dead = memo && c.program ? memo->deadPrefix(r, windowText) : 0) {
      proof.see(at + dead);
      continue;
    }
    bool byTag = false;
    if (!matchRow(c, r, window, p, memo, byTag)) {
      const std::size_t dead = memo && c.program ? deadStart(c, r, windowText, *memo) : 0;
      if (dead) proof.see(at + dead);
      else proof.provable = false;
      continue;
    }
    const bool matched = apply(slotValues(p, c.slotGroup), table[r], out, proof.numbers);
    const std::size_t end = at + p[0].size();
    if (!matched || end >= line.size() || !(byTag || c.program)) proof.provable = false;
    if (!matched) continue;
    if (!byTag) proof.matchedByPattern(r, at, p[0].size());
    if (byTag) proof.tagRows |= 1u << r;
    proof.see(at + p[0].size() + 1);  // the byte after the tag, which no longer match can take
    return r;
  }
  return table.size();
}

PrefixView peelPrefixes(std::string_view line, PrefixMemo* memo, ChainProof& proof) {
  const PrefixMatcher& m = PrefixMatcher::shared();
  const std::vector<PrefixFamily>& table = prefixFamilies();
  Pieces p{};
  PrefixView out;
  std::string_view s = line;
  PeelState state = PeelState::Start;
  bool ended = false;  // no row matches what is left: the outcome does not rest on the line's length
  for (int peel = 0; peel < kMaxPeels && !s.empty(); ++peel) {
    const std::size_t row = matchAt(m, state, line, s, p, out, memo, proof);
    if (row == table.size()) {
      ended = true;
      break;
    }
    const CompiledRow& c = m.rows[row];
    const std::string_view msg = piece(p, c.slotGroup[kMsg]);
    const std::size_t consumed = msg.data() ? static_cast<std::size_t>(msg.data() - s.data()) : p[0].size();
    if (consumed == 0) break;
    out.familyMask |= 1u << row;
    if (table[row].kind == PrefixKind::Logger) {
      state = PeelState::AfterLogger;
      out.hadLoggerPrefix = true;
    } else if (table[row].yields != kYieldNone && state == PeelState::Start) {
      state = PeelState::Stacked;
    }
    s.remove_prefix(consumed);
  }
  if (!ended) proof.provable = false;
  out.message = s;
  return out;
}

// A row ruled out by its needed literal is ruled out by the first bytes alone where its
// automaton dies within them: then the literal need not be looked for again on each line.
void settleNeeds(std::string_view line, ChainProof& proof) {
  const PrefixMatcher& m = PrefixMatcher::shared();
  std::size_t kept = 0;
  for (std::size_t i = 0; i < proof.needCount; ++i) {
    const PrefixMemo::NeedsCheck check = proof.needs[i];
    const std::optional<AnchoredProgram>& loose = m.rows[check.row].loose;
    const std::optional<std::size_t> dead =
        loose ? loose->deadAfter(line.substr(check.offset, PrefixMemo::kChainBytes)) : std::nullopt;
    if (dead && *dead > 0) proof.see(check.offset + *dead);
    else proof.needs[kept++] = check;
  }
  proof.needCount = kept;
}

// `v` moved from one copy of the bytes to another; a view elsewhere (a level word, a family
// name) stays.
std::string_view moved(std::string_view v, std::string_view from, std::string_view to) {
  const auto at = reinterpret_cast<std::uintptr_t>(v.data());
  const auto begin = reinterpret_cast<std::uintptr_t>(from.data());
  if (v.data() == nullptr || at < begin || at + v.size() > begin + from.size()) return v;
  return to.substr(at - begin, v.size());
}

void moveViews(PrefixView& v, std::string_view from, std::string_view to) {
  v.host = moved(v.host, from, to);
  v.timestamp = moved(v.timestamp, from, to);
  v.level = moved(v.level, from, to);
  v.source = moved(v.source, from, to);
  v.rankFamily = moved(v.rankFamily, from, to);
}

// Where a number's digits lie in the line; nullopt for digits that a line with others in
// their place might not read the same way (ten or more: range checks look at the value).
std::optional<PrefixMemo::NumberSpans::Span> spanOf(std::string_view digits, std::string_view line) {
  if (digits.data() == nullptr) return PrefixMemo::NumberSpans::Span{};
  if (digits.size() > 9) return std::nullopt;
  const auto at = static_cast<std::size_t>(digits.data() - line.data());
  return PrefixMemo::NumberSpans::Span{static_cast<std::uint16_t>(at + 1), static_cast<std::uint16_t>(digits.size())};
}

void rememberChain(PrefixMemo& memo, std::string_view line, const PrefixView& out, const ChainProof& proof) {
  const std::string_view key = line.substr(0, proof.seen);
  const auto rank = spanOf(proof.numbers.rank, line), localRank = spanOf(proof.numbers.localRank, line);
  const auto device = spanOf(proof.numbers.cudaDevice, line), pid = spanOf(proof.numbers.pid, line);
  if (proof.numbers.readByValue || !rank || !localRank || !device || !pid || !memo.hasRoomFor(key)) return;
  const PrefixMatcher& m = PrefixMatcher::shared();
  for (std::size_t i = 0; i < proof.endCount; ++i) {
    const ChainProof::MatchEnd e = proof.ends[i];
    if (!noLongerMatch(m.rows[e.row], line.substr(e.at, e.length), line[e.at + e.length])) return;
  }
  PrefixMemo::Chain* chain = memo.chainToFill(key);
  if (!chain) return;
  chain->view = out;
  chain->view.message = {};
  moveViews(chain->view, key, chain->key);
  chain->numbers = {*rank, *localRank, *device, *pid};
  chain->consumed = static_cast<std::size_t>(out.message.data() - line.data());
  chain->tagRows = proof.tagRows;
  chain->needs = proof.needs;
  chain->needCount = proof.needCount;
}

// A remembered parse whose bytes start the line and whose needed literals are still absent.
const PrefixMemo::Chain* provenChain(std::string_view line, PrefixMemo& memo) {
  const PrefixMemo::Chain* chain = memo.findChain(line);
  if (!chain) return nullptr;
  const PrefixMatcher& m = PrefixMatcher::shared();
  for (std::size_t i = 0; i < chain->needCount; ++i) {
    const PrefixMemo::NeedsCheck check = chain->needs[i];
    if (m.rows[check.row].hasNeeded(line.substr(check.offset, kPrefixWindow))) return nullptr;
  }
  return chain;
}

template <typename T>
void readAgain(std::optional<T>& value, PrefixMemo::NumberSpans::Span span, std::string_view line) {
  if (span.first == 0) return;
  if (const auto n = number(line.substr(span.first - 1u, span.second))) value = static_cast<T>(*n);
}

// The chain's parse on `line` (returned in place: a copy of the view costs more than the
// lookup): its views moved onto the line, its numbers read from the line's digits.
PrefixView recalled(const PrefixMemo::Chain& chain, std::string_view line, PrefixMemo& memo) {
  for (std::uint32_t rows = chain.tagRows; rows != 0; rows &= rows - 1)
    memo.tagFound(static_cast<std::size_t>(std::countr_zero(rows)));
  PrefixView v = chain.view;
  moveViews(v, chain.key, line);
  readAgain(v.rank, chain.numbers.rank, line);
  readAgain(v.localRank, chain.numbers.localRank, line);
  readAgain(v.cudaDevice, chain.numbers.cudaDevice, line);
  readAgain(v.pid, chain.numbers.pid, line);
  v.message = line.substr(chain.consumed);
  return v;
}

}  // namespace

namespace {

// A chain's key: the line's first bytes, digits as '0' where every row treats them alike.
bool digitsFolded() { return PrefixMatcher::shared().digitsAlike; }

bool startsWithFolded(std::string_view line, std::string_view key, bool fold) {
  return fold ? text::startsWithFolded(line, key) : line.substr(0, key.size()) == key;
}

}  // namespace

const PrefixMemo::Chain* PrefixMemo::findChain(std::string_view line) {
  const bool fold = digitsFolded();
  if (lastChain_ < kChainSlots && chainHashes_[lastChain_] != 0 && startsWithFolded(line, chains_[lastChain_].key, fold)) {
    chains_[lastChain_].lastUse = ++clock_;
    return &chains_[lastChain_];
  }
  for (auto length = chainLengths_.begin(); length != chainLengths_.end() && *length != 0; ++length) {
    if (*length > line.size()) continue;
    const std::uint64_t h = chainHash(line.substr(0, *length));
    for (const std::size_t i : chainSlots(h))
      // The small array of hashes first: a slot of another key is passed over unread.
      if (chainHashes_[i] == h && startsWithFolded(line, chains_[i].key, fold)) {
        chains_[i].lastUse = ++clock_;
        // The length found comes first next time: a log's lines mostly share a few.
        std::rotate(chainLengths_.begin(), length, length + 1);
        lastChain_ = i;
        return &chains_[i];
      }
  }
  return nullptr;
}

// Of the key with its digits folded where they are alike; odd, so that no key's hash is the
// 0 of an empty slot; no row has the number kRows.
std::uint64_t PrefixMemo::chainHash(std::string_view key) { return tagHash(kRows, key, digitsFolded()) | 1; }

std::array<std::size_t, 2> PrefixMemo::chainSlots(std::uint64_t hash) {
  return {hash % kChainSlots, (hash >> 32) % kChainSlots};
}

bool PrefixMemo::hasRoomFor(std::string_view key) const { return !key.empty() && key.size() <= kChainBytes; }

PrefixMemo::Chain* PrefixMemo::chainToFill(std::string_view key) {
  if (!hasRoomFor(key)) return nullptr;
  // The lengths are kept most recently found first: a new one takes the place of the one
  // found longest ago (its chains stay in their slots, unreachable until it comes back).
  auto it = std::find(chainLengths_.begin(), chainLengths_.end(), key.size());
  if (it == chainLengths_.end()) it = std::find(chainLengths_.begin(), chainLengths_.end(), 0);
  if (it == chainLengths_.end()) it = chainLengths_.end() - 1;
  *it = static_cast<std::uint16_t>(key.size());
  std::rotate(chainLengths_.begin(), it, it + 1);
  const std::uint64_t h = chainHash(key);
  const auto [a, b] = chainSlots(h);
  const std::size_t i = chainHashes_[a] == 0 || (chainHashes_[b] != 0 && chains_[a].lastUse <= chains_[b].lastUse) ? a : b;
  chainHashes_[i] = h;
  Chain& chain = chains_[i];
  chain.lastUse = ++clock_;
  if (digitsFolded()) text::assignFolded(chain.key, key);
  else chain.key.assign(key);
  return &chain;
}

namespace {

// Bit of the rich-log row in a view's familyMask.
unsigned richLogBit() {
  static const unsigned bit = [] {
    const auto& table = prefixFamilies();
    for (std::size_t i = 0; i < table.size(); ++i)
      if (table[i].name == "rich-log") return 1u << i;
    return 0u;
  }();
  return bit;
}

bool isCallerChar(char c) { return text::isWordChar(c) || c == '.' || c == '-'; }
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// rich's log line ends in its caller, right-aligned: `\s{2,}[\w.-]+\.py:\d+\s*$`. The caller
// leaves the message and becomes the source. Taken from the line's own tail, after the prefix
// chain (remembered or peeled) gave the view: a chain holds no tail of any one line.
void takeRichCaller(PrefixView& v) {
  if ((v.familyMask & richLogBit()) == 0) return;
  const std::string_view m = v.message;
  std::size_t end = m.size();
  while (end > 0 && isBlank(m[end - 1])) --end;
  std::size_t i = end;
  while (i > 0 && text::isDigit(m[i - 1])) --i;
  if (i == end || i < 4 || m.substr(i - 4, 4) != ".py:") return;
  i -= 4;
  std::size_t start = i;
  while (start > 0 && isCallerChar(m[start - 1])) --start;
  if (start == i || start < 2 || !isBlank(m[start - 1]) || !isBlank(m[start - 2])) return;
  std::size_t cut = start - 2;
  while (cut > 0 && isBlank(m[cut - 1])) --cut;
  if (cut == 0) return;  // the caller alone: no message to take it from
  if (v.source.empty()) v.source = m.substr(start, end - start);
  v.message = m.substr(0, cut);
}

}  // namespace

bool prefixMemoFoldsDigits() { return PrefixMatcher::shared().digitsAlike; }

PrefixView parsePrefixView(std::string_view line, PrefixMemo* memo) {
  if (memo)
    if (const PrefixMemo::Chain* chain = provenChain(line, *memo)) {
      PrefixView v = recalled(*chain, line, *memo);
      takeRichCaller(v);
      return v;
    }
  ChainProof proof;
  PrefixView out = peelPrefixes(line, memo, proof);
  if (memo && proof.provable) {
    settleNeeds(line, proof);
    rememberChain(*memo, line, out, proof);
  }
  takeRichCaller(out);
  return out;
}

LineInfo parsePrefixes(std::string_view line) {
  const PrefixView v = parsePrefixView(line);
  LineInfo info;
  info.rank = v.rank;
  info.host = std::string(v.host);
  info.timestamp = std::string(v.timestamp);
  info.level = std::string(v.level);
  info.message = v.message;
  info.localRank = v.localRank;
  info.rankSource = v.rankSource;
  info.source = std::string(v.source);
  info.cudaDevice = v.cudaDevice;
  info.pid = v.pid;
  info.rankFamily = std::string(v.rankFamily);
  const auto& table = prefixFamilies();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (v.familyMask & (1u << i)) info.families.emplace_back(table[i].name);
  return info;
}

}  // namespace dsls::logs

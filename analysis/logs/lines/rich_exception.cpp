// rich prints a traceback as a box, then the exception line below it, wrapped at the console
// width (which the box shows: rich draws it at min(console width, 100) columns) at word
// boundaries. The exception line is held while the lines that continue its message arrive,
// then matched with the pieces joined by the spaces the wrap took out, so a fingerprint cut
// over several lines is recognised; a message that matches nothing is reported whole.
#include <algorithm>

#include "analysis/logs/analyzer_ops.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

// East Asian wide characters take two terminal columns; other code points one.
bool isWide(std::uint32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

// Terminal columns of UTF-8 text; a byte that is not UTF-8 counts as one column.
std::size_t displayWidth(std::string_view s) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto lead = static_cast<unsigned char>(s[i]);
    const std::size_t len = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 1;
    if (len == 1 || i + len > s.size()) {
      ++width;
      ++i;
      continue;
    }
    std::uint32_t cp = lead & (0x7Fu >> len);  // the lead byte's payload bits
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
    width += isWide(cp) ? 2u : 1u;
    i += len;
  }
  return width;
}

std::string_view firstWord(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && !text::isBlank(s[n])) ++n;
  return s.substr(0, n);
}

// A greedy wrap leaves a line at least this full unless the next word is very long; a
// shorter line ends the message even when the next line starts with a long word.
bool filledLine(std::size_t lineWidth, std::size_t consoleWidth) { return lineWidth * 4 >= consoleWidth * 3; }

// The line goes on with the held message: same stream, no logger header, plain text that
// starts at the left margin, and its first word would not have fitted on the piece before.
bool continuesMessage(const RichExceptionCandidate& h, const LineContext& c) {
  const PrefixView& pv = *c.prefix;
  if (c.stream != h.stream || pv.hadLoggerPrefix) return false;
  const std::string_view m = text::trimRight(pv.message);
  if (m.empty() || text::isBlank(m.front()) || tb::richBoxPart(m) != tb::RichBox::None || tb::isTracebackStart(m))
    return false;
  if (!filledLine(h.lastWidth, h.width)) return false;
  return h.lastWidth + 1 + displayWidth(firstWord(m)) > h.width;
}

void append(RichExceptionCandidate& h, const LineContext& c) {
  const std::string_view m = text::trimRight(c.prefix->message);
  h.raw.resize(c.offset - h.offset, '\n');  // the line end between the pieces
  h.raw += c.raw;
  h.clean += ' ';
  h.clean += m;
  h.lastWidth = displayWidth(m);
  h.width = std::max(h.width, h.lastWidth);
  ++h.pieces;
}

}  // namespace

std::size_t richBoxWidth(std::string_view boxLine) { return displayWidth(text::trim(boxLine)); }

bool holdRichException(State& s, const LineContext& c) {
  StreamState& st = s.streams[c.stream];
  if (st.richBoxWidth == 0 || st.richBoxEnd + 1 != st.lineCount) return false;
  flushRichException(s);
  RichExceptionCandidate& h = s.richException;
  h.pending = true;
  h.raw.assign(c.raw);
  h.clean.assign(text::trimRight(c.clean));
  h.lineNo = c.lineNo;
  h.offset = c.offset;
  h.stream = c.stream;
  h.lastWidth = displayWidth(text::trimRight(c.prefix->message));
  h.width = std::max(st.richBoxWidth, h.lastWidth);
  h.pieces = 1;
  h.phase = c.phase;
  h.frames = c.frames ? *c.frames : std::vector<std::string>{};
  if (c.origin) h.origin = *c.origin;
  else h.origin.reset();
  h.ranks = *c.prefix;
  h.ranks.host = h.ranks.timestamp = h.ranks.level = h.ranks.source = h.ranks.message = {};
  return true;
}

bool continueRichException(State& s, const LineContext& c) {
  RichExceptionCandidate& h = s.richException;
  if (!h.pending || c.stream != h.stream) return false;
  const bool room = h.pieces < limits::kRichExceptionPieces && h.raw.size() + c.raw.size() <= limits::kRichExceptionBytes;
  if (room && continuesMessage(h, c)) {
    append(h, c);
    return true;
  }
  flushRichException(s);
  return false;
}

void flushRichException(State& s) {
  RichExceptionCandidate& h = s.richException;
  if (!h.pending) return;
  h.pending = false;
  PrefixView joinedPrefix = parsePrefixView(h.clean);
  joinedPrefix.rank = h.ranks.rank;
  joinedPrefix.localRank = h.ranks.localRank;
  joinedPrefix.rankSource = h.ranks.rankSource;
  joinedPrefix.rankFamily = h.ranks.rankFamily;
  joinedPrefix.cudaDevice = h.ranks.cudaDevice;
  const auto exception = tb::parseExceptionLine(joinedPrefix.message);
  if (!exception) return;  // the joined text no longer reads as an exception line
  LineContext joined;
  joined.lineNo = h.lineNo;
  joined.offset = h.offset;
  joined.raw = h.raw;
  joined.clean = h.clean;
  joined.prefix = &joinedPrefix;
  joined.stream = h.stream;
  joined.origin = h.origin ? &*h.origin : nullptr;
  joined.exceptionLine = true;
  joined.phase = h.phase;
  joined.frames = &h.frames;
  std::vector<FpMatch> matches;
  bool failureMatched = false;
  if (s.matcher.match(joinedPrefix.message, matches))
    for (const FpMatch& m : matches) failureMatched |= handleFingerprint(s, joined, m, matches);
  if (!failureMatched) handleGenericException(s, joined, *exception);
}

}  // namespace dsls::logs::detail

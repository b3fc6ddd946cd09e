// Lines that only mean something after an earlier one: the field errors after a pydantic
// header, the "- ds key=value vs hf arg=value" pairs after the HF mismatch error, and the rest
// of a line a terminal cut at its width.
#include <vector>

#include "analysis/logs/analyzer_ops.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

// Narrower lines are not taken for terminal-wrapped ones.
constexpr std::size_t kMinWrapWidth = 80;

// The next line continues the cut one when it carries no prefix of its own and goes on mid-text.
bool continuesWithoutPrefix(const LineContext& c) {
  const PrefixView& pv = *c.prefix;
  if (pv.rank || pv.localRank || pv.cudaDevice || pv.hadLoggerPrefix || !pv.timestamp.empty()) return false;
  return !c.clean.empty() && !text::isBlank(c.clean.front());
}

// Matches the candidate joined to this line; the evidence spans both lines.
void matchJoined(State& s, const LineContext& c) {
  const WrapCandidate& w = s.wrap;
  if (c.offset < w.offset + w.raw.size()) return;
  const std::string joinedClean = (w.cleanIsRaw ? w.raw : w.clean) + std::string(c.clean);
  const PrefixView joinedPrefix = parsePrefixView(joinedClean);
  std::vector<FpMatch> matches;
  if (!s.matcher.match(joinedPrefix.message, matches)) return;
  std::string joinedRaw = w.raw;
  joinedRaw.resize(c.offset - w.offset, '\n');  // the terminator between the pieces
  joinedRaw += c.raw;
  LineContext joined = c;
  joined.lineNo = w.lineNo;
  joined.offset = w.offset;
  joined.raw = joinedRaw;
  joined.clean = joinedClean;
  joined.prefix = &joinedPrefix;
  joined.stream = w.stream;
  joined.origin = w.origin ? &*w.origin : nullptr;
  for (const FpMatch& m : matches) handleFingerprint(s, joined, m, matches);
}

}  // namespace

void joinWrappedLine(State& s, const LineContext& c, bool lineMatched) {
  WrapCandidate& w = s.wrap;
  if (w.pending && !lineMatched && continuesWithoutPrefix(c)) matchJoined(s, c);
  w.pending = !lineMatched && c.clean.size() >= kMinWrapWidth;
  if (!w.pending) return;
  w.raw.assign(c.raw);
  // Most lines hold no ANSI escapes: their clean text is the raw one, not copied twice.
  w.cleanIsRaw = c.clean.data() == c.raw.data() && c.clean.size() == c.raw.size();
  if (!w.cleanIsRaw) w.clean.assign(c.clean);
  w.lineNo = c.lineNo;
  w.offset = c.offset;
  w.stream = c.stream;
  if (c.origin) w.origin = *c.origin;
  else w.origin.reset();
}

void handleContinuations(State& s, const LineContext& c, std::string_view message, bool /*matched*/) {
  StreamState& st = s.streams[c.stream];
  if (st.pydanticLinesLeft > 0) --st.pydanticLinesLeft;
  if (st.hfMismatchLinesLeft == 0) return;
  --st.hfMismatchLinesLeft;
  // "- ds train_micro_batch_size_per_gpu=1 vs hf per_device_train_batch_size=8"
  const std::string_view t = text::trim(message);
  if (t.substr(0, 5) != "- ds ") return;
  const std::string_view rest = t.substr(5);
  const std::size_t eq = rest.find('=');
  if (eq == std::string_view::npos || eq == 0) return;
  Accumulator* a = findAccumulator(s, FailureId::HfConfigMismatch);
  if (!a) return;
  addConfigKey(a, text::sanitize(rest.substr(0, eq), 80));
  addDetail(a, text::sanitize(t.substr(2), 200));
}

}  // namespace dsls::logs::detail

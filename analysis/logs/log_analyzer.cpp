#include "analysis/logs/log_analyzer.h"

#include <algorithm>

#include "analysis/logs/analyzer_ops.h"
#include "analysis/logs/lines/text_util.h"
#include "analysis/logs/lines/timestamps.h"

namespace dsls::logs {

using namespace detail;

void RankSet::add(int rank) {
  auto it = std::lower_bound(ranks.begin(), ranks.end(), rank);
  if (it != ranks.end() && *it == rank) return;
  if (ranks.size() >= limits::kRanksPerSet) {
    ++dropped;
    return;
  }
  ranks.insert(it, rank);
}

bool RankSet::contains(int rank) const { return std::binary_search(ranks.begin(), ranks.end(), rank); }

AnalyzerOptions AnalyzerOptions::fromSettings(const analysis::Settings& settings) {
  AnalyzerOptions options;
  if (!settings.deepspeedVersion.empty()) options.deepspeedVersion = settings.deepspeedVersion;
  if (!settings.torchVersion.empty()) options.torchVersion = settings.torchVersion;
  return options;
}

namespace detail {

namespace {

// Evidence of the line without its text.
Evidence evidenceHead(const LineContext& c) {
  Evidence e;
  e.line = c.lineNo;
  e.byteOffset = c.offset;
  e.length = c.raw.size();
  e.rank = c.prefix->rank;
  e.host = std::string(c.prefix->host);
  e.seq = c.lineNo;
  if (c.origin) {
    e.file = c.origin->file;
    e.line = c.origin->line;
  }
  return e;
}

std::string evidenceText(const LineContext& c) {
  return text::sanitize(text::trimRight(c.clean.empty() ? c.raw : c.clean), limits::kEvidenceTextBytes);
}

}  // namespace

Evidence makeEvidence(const LineContext& c) {
  Evidence e = evidenceHead(c);
  e.text = evidenceText(c);
  return e;
}

Evidence fullEvidence(const Occurrence& occ) {
  Evidence e = occ.evidence;
  if (occ.textOf) e.text = evidenceText(*occ.textOf);
  return e;
}

std::string lineRef(const State& s, std::size_t line, std::optional<std::size_t> file) {
  std::string out = "line " + std::to_string(line);
  if (file && *file < s.files.size()) out += " of " + s.files[*file];
  return out;
}

std::string lineRef(const State& s, const Evidence& e) { return lineRef(s, e.line, e.file); }

std::string firstLineRef(const State& s, const Accumulator& a) {
  return a.evidence.empty() ? lineRef(s, a.firstLine, std::nullopt) : lineRef(s, a.evidence.front());
}

void takeTextRank(Occurrence& occ, int rank) {
  if (occ.rank) return;
  occ.rank = rank;
  occ.rankSource = RankSource::Global;
  occ.rankFamily = kErrorTextFamily;
}

void giveFirstRank(Accumulator& a, int rank, RankSource source, std::string_view family) {
  a.firstRank = rank;
  a.firstRankSource = source;
  a.firstRankFamily = std::string(family);
}

Occurrence occurrenceOf(const LineContext& c, bool useLineRank) {
  Occurrence o;
  o.evidence = evidenceHead(c);
  o.textOf = &c;
  if (useLineRank) {
    o.rank = c.prefix->rank;
    o.rankSource = c.prefix->rankSource;
    o.rankFamily = c.prefix->rankFamily;
  }
  o.stream = c.stream;
  o.phase = c.phase;
  o.frames = c.frames;
  return o;
}

namespace {

TimelineEventKind kindForTier(Tier tier, FailureId failure) {
  switch (tier) {
    case Tier::Collateral:
      return failure == FailureId::NcclWatchdogTimeout ? TimelineEventKind::Timeout : TimelineEventKind::Abort;
    case Tier::Advisory: return TimelineEventKind::Warning;
    default: return TimelineEventKind::Failure;
  }
}

}  // namespace

void addTimelineEvent(State& s, std::size_t stream, const Evidence& ev, TimelineEventKind kind, std::string_view id,
                      std::string_view label) {
  if (stream >= s.streams.size()) return;
  StreamState& st = s.streams[stream];
  if (std::find(st.eventIds.begin(), st.eventIds.end(), id) != st.eventIds.end()) return;
  if (st.eventIds.size() < 64) st.eventIds.emplace_back(id);
  ++st.eventsTotal;
  if (st.events.size() >= limits::kTimelineEventsPerStream) return;
  TimelineEvent e;
  e.line = ev.line;
  e.byteOffset = ev.byteOffset;
  e.file = ev.file;
  e.seq = ev.seq;
  e.time = s.lastTime;
  e.kind = kind;
  e.findingId = std::string(id);
  e.label = std::string(label);
  st.events.push_back(std::move(e));
}

Accumulator* findAccumulator(State& s, FailureId failure) {
  auto it = s.accumulatorIndex.find(failureCode(failure));
  return it == s.accumulatorIndex.end() ? nullptr : &s.accumulators[it->second];
}

const Accumulator* findAccumulator(const State& s, FailureId failure) {
  auto it = s.accumulatorIndex.find(failureCode(failure));
  return it == s.accumulatorIndex.end() ? nullptr : &s.accumulators[it->second];
}

Accumulator* record(State& s, FailureId failure, const Occurrence& occ, const RecordOptions& options) {
  const std::string_view id = failureCode(failure);
  std::string_view key = id;
  if (!options.keySuffix.empty()) {
    s.recordKeyScratch.assign(id).append(1, ':').append(options.keySuffix);
    key = s.recordKeyScratch;
  }
  auto it = s.accumulatorIndex.find(key);
  std::size_t index;
  if (it == s.accumulatorIndex.end()) {
    if (s.accumulators.size() >= limits::kAccumulators) {
      ++s.droppedAccumulatorLines;
      return nullptr;
    }
    const FailureInfo& info = failureInfo(failure);
    Accumulator a;
    a.key = std::string(key);
    a.failure = failure;
    a.id = std::string(id);
    a.title = options.title.empty() ? std::string(info.title) : options.title;
    a.tier = options.tier.value_or(info.tier);
    a.severity = options.severity.value_or(info.severity);
    index = s.accumulators.size();
    s.accumulatorIndex.emplace(a.key, index);
    s.accumulators.push_back(std::move(a));
  } else {
    index = it->second;
  }
  Accumulator& a = s.accumulators[index];
  // A stronger occurrence (an exception after a warning with the same id) upgrades the finding.
  if (options.tier && *options.tier == Tier::Primary && a.tier != Tier::Primary) a.tier = Tier::Primary;
  if (options.severity && static_cast<int>(*options.severity) < static_cast<int>(a.severity))
    a.severity = *options.severity;
  ++a.total;
  if (a.total == 1) {
    a.firstLine = occ.evidence.seq;
    a.firstOffset = occ.evidence.byteOffset;
    a.firstRank = occ.rank;
    a.firstRankSource = occ.rankSource;
    a.firstRankFamily = std::string(occ.rankFamily);
    a.firstHost = occ.evidence.host;
    a.firstTime = s.lastTime;
    a.firstLineTime = s.lineTime;
    a.phase = occ.phase;
    if (occ.frames) a.frames = *occ.frames;
  }
  if (occ.rank && a.firstRank && *occ.rank != *a.firstRank && !a.otherRankSeen) {
    a.otherRankSeen = true;
    a.otherRankLineTime = s.lineTime;
  }
  if (occ.rank) a.ranks.add(*occ.rank);
  else ++a.unranked;
  if (a.evidence.size() < limits::kEvidencePerFinding) a.evidence.push_back(fullEvidence(occ));
  if (!(a.tier == Tier::Advisory && a.severity == analysis::Severity::Information))
    addTimelineEvent(s, occ.stream, occ.evidence, kindForTier(a.tier, a.failure), a.id, a.title);
  return &a;
}

void addDetail(Accumulator* a, std::string detail) {
  if (!a || detail.empty() || a->details.size() >= limits::kDetailsPerFinding) return;
  if (std::find(a->details.begin(), a->details.end(), detail) != a->details.end()) return;
  a->details.push_back(std::move(detail));
}

void addConfigKey(Accumulator* a, std::string key) {
  if (!a || key.empty() || a->configKeys.size() >= limits::kConfigKeysPerFinding) return;
  if (std::find(a->configKeys.begin(), a->configKeys.end(), key) != a->configKeys.end()) return;
  a->configKeys.push_back(std::move(key));
}

void recordExit(State& s, const LineContext& c, ExitObservation exit) {
  if (exit.code == 0) return;
  if ((exit.code == -6 || exit.code == -15) && exit.rank) s.collateralRanks.add(*exit.rank);
  if (s.exits.size() < limits::kExitObservations) s.exits.push_back(exit);
  else ++s.exitsDropped;
  addTimelineEvent(s, c.stream, makeEvidence(c), TimelineEventKind::Exit, "exit:" + std::to_string(exit.code),
                   "exit code " + std::to_string(exit.code));
}

}  // namespace detail

namespace {

std::size_t findStream(State& s, const PrefixView& pv);

// Rows of the timeline: one per rank, per host without rank, or the unprefixed lines.
std::size_t streamFor(State& s, const PrefixView& pv) {
  if (s.lastStream < s.streams.size()) {
    const StreamState& last = s.streams[s.lastStream];
    if (last.rank == pv.rank && last.host == pv.host) return s.lastStream;
  }
  // Lines of many ranks interleave: the row last used by the line's rank is checked next.
  const bool hinted = pv.rank && *pv.rank >= 0 && static_cast<std::size_t>(*pv.rank) < limits::kRanksPerSet;
  const std::size_t rankIndex = hinted ? static_cast<std::size_t>(*pv.rank) : 0;
  if (hinted && rankIndex < s.streamByRank.size()) {
    const std::size_t i = s.streamByRank[rankIndex];
    if (i < s.streams.size() && s.streams[i].rank == pv.rank && s.streams[i].host == pv.host) return s.lastStream = i;
  }
  const std::size_t found = findStream(s, pv);
  if (hinted && found < s.streams.size() && s.streams[found].rank == pv.rank) {
    if (rankIndex >= s.streamByRank.size()) s.streamByRank.resize(rankIndex + 1, static_cast<std::size_t>(-1));
    s.streamByRank[rankIndex] = found;
  }
  return found;
}

std::size_t findStream(State& s, const PrefixView& pv) {
  s.keyScratch.clear();
  if (pv.rank) s.keyScratch += std::to_string(*pv.rank);
  s.keyScratch += '|';
  s.keyScratch.append(pv.host);
  auto it = s.streamIndex.find(s.keyScratch);
  if (it != s.streamIndex.end()) return s.lastStream = it->second;
  if (s.streams.size() >= limits::kStreams) {
    // Beyond the cap every new identity shares one overflow row.
    auto overflow = s.streamIndex.find("overflow");
    if (overflow != s.streamIndex.end()) return s.lastStream = overflow->second;
    StreamState st;
    st.host = "(other ranks)";
    s.streams.push_back(std::move(st));
    s.streamIndex.emplace("overflow", s.streams.size() - 1);
    return s.lastStream = s.streams.size() - 1;
  }
  StreamState st;
  st.rank = pv.rank;
  st.rankSource = pv.rankSource;
  st.host = std::string(pv.host);
  s.streams.push_back(std::move(st));
  s.streamIndex.emplace(s.keyScratch, s.streams.size() - 1);
  return s.lastStream = s.streams.size() - 1;
}

// The line's prefixes, after the log's own per-process tag when it has one; while the tags
// are still being learned from the lines themselves, this line teaches them too.
PrefixView parseWithProcessTag(State& s, std::string_view clean) {
  const std::optional<TagMatch> tag = s.processTags.match(clean);
  PrefixView pv = parsePrefixView(tag ? clean.substr(tag->length) : clean, &s.prefixMemo);
  if (tag && !pv.rank) {
    pv.rank = tag->process;
    pv.rankSource = RankSource::ProcessTag;
    pv.rankFamily = kProcessTagFamily;
  }
  if (!s.processTagsLearned && s.processTags.learning())
    s.processTags.observe(clean, pv.rank || pv.localRank || !pv.host.empty());
  return pv;
}

// An NCCL debug line names a process (host:pid) and a device, not a rank; the process's
// Init line maps it to one.
void resolveNcclProcessRank(State& s, PrefixView& pv) {
  if (pv.rank || !pv.pid || !pv.cudaDevice || s.ncclProcessRank.empty()) return;
  s.keyScratch.assign(pv.host).append(1, '|').append(std::to_string(*pv.pid));
  auto it = s.ncclProcessRank.find(s.keyScratch);
  if (it == s.ncclProcessRank.end()) return;
  pv.rank = it->second.first;
  pv.rankSource = RankSource::Global;
  pv.rankFamily = kNcclInitFamily;
}

// A job's file names the rank of its lines; a rank in the line's own prefix wins.
void applyOrigin(const LineOrigin& origin, PrefixView& pv) {
  if (pv.rank || !origin.rank) return;
  pv.rank = origin.rank;
  pv.rankSource = origin.localRank ? RankSource::LocalPrefix : RankSource::Global;
  pv.rankFamily = kFileNameFamily;
}

void recordIncompleteTraceback(State& s, std::size_t stream) {
  StreamState& st = s.streams[stream];
  Occurrence occ;
  occ.evidence = st.tracebackStart;
  occ.rank = st.rank;
  occ.rankSource = st.rankSource;
  occ.stream = stream;
  Accumulator* a = record(s, FailureId::IncompleteTraceback, occ);
  if (a && st.frames > 0 && !st.lastFrames.empty())
    addDetail(a, "The last frame shown is " + st.lastFrames.back() + ".");
  st.inTraceback = false;
}

// A traceback begins at this line: frames, phase and the last frames start afresh.
void startTraceback(StreamState& st, const LineContext& c) {
  st.inTraceback = true;
  st.tracebackStart = makeEvidence(c);
  st.frames = 0;
  st.phase = 0;
  st.lastFrames.clear();
  st.raisingCode.clear();
  st.codeNext = false;
}

// rich's boxed traceback: the box (its top may be cut from a paste) stands for the frames;
// the line after its bottom is the exception line. True when the line is part of the box.
bool stepRichBox(StreamState& st, const LineContext& c, std::string_view message) {
  const tb::RichBox part = tb::richBoxPart(message);
  if (part == tb::RichBox::None) return false;
  if (part == tb::RichBox::Bottom) {
    if (st.inTraceback && st.frames == 0) st.frames = 1;  // the box held the frames
    st.richBoxWidth = richBoxWidth(message);
    st.richBoxEnd = st.lineCount;
    return true;
  }
  if (!st.inTraceback && (part == tb::RichBox::Top ? message.find("Traceback") != std::string_view::npos : true))
    startTraceback(st, c);
  st.interruptions = 0;
  return true;
}

// After the first exception line of interleaved tracebacks, the other processes' exception
// lines: unindented, within a few lines.
std::optional<tb::ExceptionLine> interleavedExceptionLine(StreamState& st, std::string_view message, bool loggerLine) {
  if (st.interleavedLeft == 0) return std::nullopt;
  if (st.lineCount > st.interleavedUntil) {
    st.interleavedLeft = 0;
    return std::nullopt;
  }
  if (loggerLine || message.empty() || message[0] == ' ' || message[0] == '\t') return std::nullopt;
  auto ex = tb::parseExceptionLine(message);
  if (ex) --st.interleavedLeft;
  return ex;
}

// Advances the stream's traceback state; returns the exception line that ends it.
std::optional<tb::ExceptionLine> stepTraceback(State& s, const LineContext& c, std::string_view message,
                                               bool loggerLine) {
  StreamState& st = s.streams[c.stream];
  if (!loggerLine && stepRichBox(st, c, message)) return std::nullopt;
  // A paste that starts inside a traceback, its header cut off, starts with a frame line (or
  // with the code line of the frame cut off before it); so does, just after an exception line,
  // the rest of another process's traceback interleaved with it. A frame line elsewhere, with
  // no traceback around it, starts nothing.
  if (st.lineCount == 1) st.startsWithCodeLine = !loggerLine && !message.empty() && text::isBlank(message[0]);
  const bool afterException =
      st.exceptionEndedAt > 0 && st.lineCount <= st.exceptionEndedAt + tb::kInterleavedWindow;
  const bool pasteStart = st.lineCount == 1 || (st.lineCount == 2 && st.startsWithCodeLine);
  const bool headless = !loggerLine && !st.inTraceback && (pasteStart || afterException) && tb::parseFrame(message);
  if (headless || (!loggerLine && tb::isTracebackStart(message))) {
    // A second header before an exception line is usually interleaved output of
    // several processes without prefixes: restart rather than report, and count them.
    const std::size_t open = st.inTraceback && !headless ? st.openTracebacks + 1 : 1;
    startTraceback(st, c);
    st.openTracebacks = open;
    st.interruptions = 0;
    if (!headless) return std::nullopt;
  }
  if (!st.inTraceback) {
    // A paste that starts at an exception line starts at the end of a traceback, its header and
    // frames cut off: frames just after it are the rest of another process's, as after any
    // exception line. The exception itself, with no frame shown, is not taken.
    if (st.lineCount == 1 && !loggerLine && tb::parseExceptionLine(message)) st.exceptionEndedAt = st.lineCount;
    return interleavedExceptionLine(st, message, loggerLine);
  }
  if (loggerLine) {
    if (++st.interruptions > limits::kTracebackInterruptions) recordIncompleteTraceback(s, c.stream);
    return std::nullopt;
  }
  if (message.empty()) return std::nullopt;
  if (message[0] == ' ' || message[0] == '\t' || headless || tb::isUnindentedFrame(message)) {
    if (auto frame = tb::parseFrame(message)) {
      ++st.frames;
      st.phase |= tb::phaseOf(*frame);
      std::string file(frame->file);
      const std::size_t slash = file.find_last_of('/');
      if (slash != std::string::npos) file.erase(0, slash + 1);
      if (st.lastFrames.size() >= limits::kFramesKept) st.lastFrames.erase(st.lastFrames.begin());
      st.lastFrames.push_back(text::sanitize(frame->function, 80) + " (" + text::sanitize(file, 80) + ":" +
                              std::to_string(frame->line) + ")");
      st.interruptions = 0;
      st.raisingCode.clear();
      st.codeNext = true;
    } else if (st.codeNext) {
      st.raisingCode = text::sanitize(text::trim(message), 240);
      st.codeNext = false;
    }
    return std::nullopt;
  }
  if (st.frames > 0) {
    if (auto ex = tb::parseExceptionLine(message)) {
      st.inTraceback = false;
      st.interleavedLeft = st.openTracebacks > 1 ? st.openTracebacks - 1 : 0;
      st.interleavedUntil = st.lineCount + tb::kInterleavedWindow;
      st.exceptionEndedAt = st.lineCount;
      st.openTracebacks = 0;
      return ex;
    }
  }
  if (++st.interruptions > limits::kTracebackInterruptions) recordIncompleteTraceback(s, c.stream);
  return std::nullopt;
}

// What makes two occurrences of one exception type the same failure: the message and the
// line that raised it.
void noteExceptionSignature(Accumulator& a, const LineContext& c, const tb::ExceptionLine& ex) {
  std::string signature = std::string(ex.type) + ": " + std::string(text::trim(ex.text));
  if (c.frames && !c.frames->empty()) signature += " @ " + c.frames->back();
  if (a.total == 1) a.exceptionSignature = std::move(signature);
  else if (signature != a.exceptionSignature) a.exceptionVaries = true;
}

}  // namespace

void detail::handleGenericException(State& s, const LineContext& c, const tb::ExceptionLine& ex) {
  const Occurrence occ = occurrenceOf(c);
  switch (tb::classifyException(ex.type, ex.text)) {
    case tb::ExceptionClass::Collateral:
      if (occ.rank) s.collateralRanks.add(*occ.rank);
      addTimelineEvent(s, c.stream, occ.evidence, TimelineEventKind::Abort, "collateral-exception",
                       text::sanitize(ex.type, 80));
      return;
    case tb::ExceptionClass::Communication: {
      Accumulator* a = record(s, FailureId::NcclError, occ);
      addDetail(a, "First error: " + text::sanitize(ex.type, 80) + ": " + text::sanitize(ex.text, 240));
      return;
    }
    case tb::ExceptionClass::Primary: {
      std::string type = text::sanitize(ex.type, 80);
      if (c.phase & tb::kPhaseOpBuild) {  // the build's own exception (CalledProcessError from ninja, ...)
        Accumulator* a = record(s, FailureId::OpBuildFailure, occ);
        addDetail(a, "The op's build raised " + type + (ex.text.empty() ? "" : ": " + text::sanitize(ex.text, 240)));
        return;
      }
      RecordOptions o;
      o.keySuffix = type;
      o.title = "Uncaught " + type;
      Accumulator* a = record(s, FailureId::PythonException, occ, o);
      if (!a) return;
      if (a->total == 1) {
        addDetail(a, type + (ex.text.empty() ? "" : ": " + text::sanitize(ex.text, 300)));
        a->raisingCode = s.streams[c.stream].raisingCode;
      }
      noteExceptionSignature(*a, c, ex);
      return;
    }
  }
}

namespace {

bool isBareWord(std::string_view s) {
  if (s.empty() || s.size() > 120) return false;
  for (char ch : s)
    if (!(text::isWordChar(ch) || ch == '.')) return false;
  return true;
}

}  // namespace

LogAnalyzer::LogAnalyzer() : LogAnalyzer(AnalyzerOptions{}) {}

LogAnalyzer::LogAnalyzer(AnalyzerOptions options) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
}

LogAnalyzer::~LogAnalyzer() = default;
LogAnalyzer::LogAnalyzer(LogAnalyzer&&) noexcept = default;
LogAnalyzer& LogAnalyzer::operator=(LogAnalyzer&&) noexcept = default;

void LogAnalyzer::addLine(std::string_view line, std::size_t byteOffset) {
  State& s = *state_;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // callers that split on '\n' only
  ++s.lineNo;
  s.bytes = std::max(s.bytes, byteOffset + line.size());
  const std::string_view clean = text::stripAnsi(line, s.ansiScratch);
  PrefixView pv = parseWithProcessTag(s, clean);
  resolveNcclProcessRank(s, pv);
  if (s.origin) applyOrigin(*s.origin, pv);
  s.lineTime.reset();
  if (!pv.timestamp.empty())
    if (auto t = secondsInYear(pv.timestamp)) s.lastTime = s.lineTime = t;

  const std::size_t si = streamFor(s, pv);
  {
    StreamState& st = s.streams[si];
    if (st.lineCount == 0) {
      st.firstLine = s.lineNo;
      st.firstOffset = byteOffset;
    }
    ++st.lineCount;
    st.lastLine = s.lineNo;
    st.lastOffset = byteOffset;
    if (s.lineTime) {
      if (!st.firstTime) st.firstTime = s.lineTime;
      st.lastTime = s.lineTime;
    }
    if (pv.rankSource == RankSource::Global) st.rankSource = RankSource::Global;
  }

  LineContext c;
  c.lineNo = s.lineNo;
  c.offset = byteOffset;
  c.raw = line;
  c.clean = clean;
  c.prefix = &pv;
  c.stream = si;
  c.origin = s.origin;
  const std::string_view message = pv.message;

  if (!s.torchrunBlockActive && !pv.hadLoggerPrefix && startsTorchrunEntry(message)) {
    s.torchrunBlockActive = true;  // a paste that starts inside the summary's list of failures
    s.torchrunBlockRoot = false;
  }
  if (s.torchrunBlockActive) stepTorchrunSummary(s, c, message);

  const bool richContinuation = continueRichException(s, c);
  const auto exception = stepTraceback(s, c, message, pv.hadLoggerPrefix);
  if (exception) {
    c.exceptionLine = true;
    c.phase = s.streams[si].phase;
    c.frames = &s.streams[si].lastFrames;
  }

  bool failureMatched = false;
  const LineLiteralHits literals = s.literalMemo.scan(message);
  s.matches.clear();
  if (literals.has(LineLiteral::Fingerprint) && s.matchMemo.matchHoldingLiteral(message, s.matches))
    for (const FpMatch& m : s.matches) failureMatched |= handleFingerprint(s, c, m, s.matches);
  handleContinuations(s, c, message, !s.matches.empty());
  scanMetrics(s, c, message, literals);
  const bool richHeld = exception && !failureMatched && holdRichException(s, c);
  if (exception && !failureMatched && !richHeld) handleGenericException(s, c, *exception);
  joinWrappedLine(s, c, !s.matches.empty() || richHeld || richContinuation);

  StreamState& st = s.streams[si];
  const std::string_view trimmed = text::trim(message);
  if (isBareWord(trimmed)) st.previousBareWord.assign(trimmed);
  else if (!trimmed.empty()) st.previousBareWord.clear();
}

void LogAnalyzer::addLine(std::string_view line, std::size_t byteOffset, const LineOrigin& origin) {
  state_->origin = &origin;
  addLine(line, byteOffset);
  state_->origin = nullptr;
}

void LogAnalyzer::setFiles(std::vector<std::string> paths) { state_->files = std::move(paths); }

void LogAnalyzer::learnProcessTags(std::string_view head) {
  State& s = *state_;
  if (s.lineNo > 0) return;
  std::string scratch;
  std::size_t at = 0;
  while (at < head.size() && s.processTags.learning()) {
    std::size_t end = head.find('\n', at);
    if (end == std::string_view::npos) break;  // a cut last line is left out
    std::string_view line = head.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string_view clean = text::stripAnsi(line, scratch);
    const PrefixView pv = parsePrefixView(clean);
    s.processTags.observe(clean, pv.rank || pv.localRank || !pv.host.empty());
    at = end + 1;
  }
  s.processTagsLearned = true;
}

LogReport LogAnalyzer::finish() {
  State& s = *state_;
  flushRichException(s);
  finishTorchrunEntry(s);
  for (std::size_t i = 0; i < s.streams.size(); ++i)
    if (s.streams[i].inTraceback) recordIncompleteTraceback(s, i);
  return diagnose(s);
}

AnalyzerStateSize LogAnalyzer::stateSize() const {
  const State& s = *state_;
  AnalyzerStateSize z;
  z.streams = s.streams.size();
  z.accumulators = s.accumulators.size();
  std::size_t bytes = sizeof(State);
  for (const auto& st : s.streams) {
    z.timelineEvents += st.events.size();
    bytes += sizeof(StreamState) + st.host.size() + st.tracebackStart.text.size() + st.previousBareWord.capacity();
    for (const auto& e : st.events) bytes += sizeof(e) + e.label.size() + e.findingId.size();
    for (const auto& f : st.lastFrames) bytes += f.size() + sizeof(f);
  }
  for (const auto& a : s.accumulators) {
    z.evidence += a.evidence.size();
    z.trackedRanks += a.ranks.ranks.size();
    bytes += sizeof(a) + a.ranks.ranks.size() * sizeof(int);
    for (const auto& e : a.evidence) bytes += sizeof(e) + e.text.size() + e.host.size();
    for (const auto& d : a.details) bytes += d.size();
  }
  z.trackedRanks += s.watchdog.size() + s.collateralRanks.ranks.size();
  bytes += s.watchdog.size() * (sizeof(WatchdogObservation) + 32) + s.exits.size() * sizeof(ExitObservation);
  bytes += s.pidToLocalRank.size() * 32 + s.torchrunEntries.size() * sizeof(TorchrunEntry);
  bytes += s.numerics.zeroLoss.pending.size() * 512 + s.numerics.sqrt2GradNorm.pending.size() * 512;
  bytes += s.richException.raw.capacity() + s.richException.clean.capacity();
  z.approximateBytes = bytes;
  return z;
}

}  // namespace dsls::logs

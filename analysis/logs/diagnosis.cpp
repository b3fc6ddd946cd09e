// Turns the accumulated observations into a report: chooses the initiating
// failure by the rules for multi-rank logs (earliest non-collective failure
// wins; watchdog timeouts are collateral; ranks missing from the timeout lines
// are suspects; SeqNum/OpType skew means the ranks are out of step; torchrun's
// "Root Cause" is only the first observed exit; rank-0-only lines name no rank).
// When the log does not support a cause, the report says so instead of guessing.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "analysis/logs/analyzer_ops.h"
#include "analysis/logs/numerics_notes.h"
#include "analysis/logs/text_util.h"

namespace dsls::logs::detail {

std::string joinRanks(const std::vector<int>& ranks, std::size_t max) {
  std::string out;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    if (shown >= max) {
      out += fmt::format("… ({} more)", ranks.size() - i);
      break;
    }
    out += j - i >= 2 ? fmt::format("{}–{}", ranks[i], ranks[j]) : std::to_string(ranks[i]);
    if (j - i == 1) out += ", " + std::to_string(ranks[j]);
    shown += j - i + 1;
    i = j + 1;
  }
  return out;
}

std::string formatDuration(double seconds) {
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.1f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

namespace {

struct WatchdogAnalysis {
  std::vector<int> timeoutRanks;
  std::map<std::pair<long long, std::string>, std::vector<int>> groups;  // (SeqNum, OpType) -> ranks
  bool skew = false;
  std::optional<int> skewSuspect;
  std::string skewText;
  std::vector<int> missing;  // ranks in 0..max that did not report a timeout
  bool worldKnown = false;
  int maxRank = -1;
  long long timeoutMs = -1;
  std::size_t firstLine = 0;
  std::optional<double> firstTime;
};

std::string opText(long long seq, const std::string& op) {
  return op.empty() ? fmt::format("work {}", seq) : fmt::format("SeqNum={} {}", seq, op);
}

WatchdogAnalysis analyzeWatchdog(const State& s, const std::vector<int>& ranksSeen) {
  WatchdogAnalysis w;
  for (const auto& [rank, obs] : s.watchdog) {
    w.timeoutRanks.push_back(rank);
    w.groups[{obs.seq, obs.opType}].push_back(rank);
    if (w.timeoutMs < 0 && obs.timeoutMs > 0) w.timeoutMs = obs.timeoutMs;
    if (w.firstLine == 0 || obs.line < w.firstLine) {
      w.firstLine = obs.line;
      w.firstTime = obs.time;
    }
  }
  if (w.timeoutRanks.empty()) return w;

  // Skew: ranks waiting in different collectives. Ignore a missing OpType when
  // the SeqNum agrees (lines from the "detected by watchdog at work" form).
  std::map<long long, std::vector<int>> bySeq;
  for (const auto& [key, ranks] : w.groups)
    for (int r : ranks) bySeq[key.first].push_back(r);
  std::set<std::string> ops;
  for (const auto& [key, ranks] : w.groups)
    if (!key.second.empty()) ops.insert(key.second);
  w.skew = bySeq.size() > 1 || ops.size() > 1;
  if (w.skew) {
    std::vector<std::string> parts;
    for (const auto& [key, ranks] : w.groups) {
      std::vector<int> sorted = ranks;
      std::sort(sorted.begin(), sorted.end());
      parts.push_back(fmt::format("rank{} {} at {}", sorted.size() > 1 ? "s" : "", joinRanks(sorted), opText(key.first, key.second)));
    }
    w.skewText = fmt::format("{}", fmt::join(parts, "; "));
    // A single rank on its own while every other rank agrees is the odd one out;
    // with two groups of one rank each, the one behind (lower SeqNum) is.
    std::vector<std::pair<std::pair<long long, std::string>, std::vector<int>>> g(w.groups.begin(), w.groups.end());
    if (g.size() == 2) {
      const auto& a = g[0];
      const auto& b = g[1];
      if (a.second.size() == 1 && b.second.size() > 1) w.skewSuspect = a.second[0];
      else if (b.second.size() == 1 && a.second.size() > 1) w.skewSuspect = b.second[0];
      else if (a.second.size() == 1 && b.second.size() == 1 && a.first.first != b.first.first)
        w.skewSuspect = a.first.first < b.first.first ? a.second[0] : b.second[0];
    }
  }

  // Missing ranks: ranks are 0..N-1, so any rank up to the world size (or the
  // highest rank seen) that did not time out is not waiting with the others.
  int maxRank = -1;
  if (s.facts.worldSize) {
    maxRank = *s.facts.worldSize - 1;
    w.worldKnown = true;
  }
  for (int r : ranksSeen) maxRank = std::max(maxRank, r);
  for (int r : w.timeoutRanks) maxRank = std::max(maxRank, r);
  w.maxRank = maxRank;
  if (maxRank >= 0 && maxRank < static_cast<int>(limits::kRanksPerSet)) {
    for (int r = 0; r <= maxRank; ++r)
      if (!s.watchdog.count(r)) w.missing.push_back(r);
  }
  return w;
}

std::optional<bool> parseBool(const std::map<std::string, std::string>& cfg, const std::string& key) {
  auto it = cfg.find(key);
  if (it == cfg.end()) return std::nullopt;
  if (it->second == "True" || it->second == "true") return true;
  if (it->second == "False" || it->second == "false") return false;
  return std::nullopt;
}

RunConfig runConfig(const State& s, const LogReport& r) {
  RunConfig run;
  const auto& cfg = s.facts.resolvedConfig;
  const AnalyzerOptions& o = s.options;
  if (auto it = cfg.find("zero_optimization.stage"); it != cfg.end()) {
    if (auto n = text::parseInt(it->second)) run.zeroStage = static_cast<int>(*n);
    else if (it->second.find("3") != std::string::npos) run.zeroStage = 3;  // <ZeroStageEnum.weights: 3>
    else if (it->second.find("2") != std::string::npos) run.zeroStage = 2;
    else if (it->second.find("1") != std::string::npos) run.zeroStage = 1;
  }
  run.overlapComm = parseBool(cfg, "zero_optimization.overlap_comm");
  run.contiguousGradients = parseBool(cfg, "zero_optimization.contiguous_gradients");
  run.configFromLog = run.overlapComm.has_value();
  if (!run.zeroStage) run.zeroStage = o.zeroStage;
  if (!run.overlapComm) run.overlapComm = o.overlapComm;
  if (!run.contiguousGradients) run.contiguousGradients = o.contiguousGradients;
  run.bf16 = parseBool(cfg, "bf16.enabled");
  if (!run.bf16) run.bf16 = o.bf16Enabled;
  run.fp16 = parseBool(cfg, "fp16.enabled");
  run.checkGradOverflow = parseBool(cfg, "bf16.check_grad_overflow");
  if (auto it = cfg.find("gradient_clipping"); it != cfg.end()) {
    char* end = nullptr;
    const double g = std::strtod(it->second.c_str(), &end);
    if (end != it->second.c_str()) run.gradientClipping = g;
  }
  if (r.deepspeedVersion) {
    run.deepspeed = text::parseVersion(*r.deepspeedVersion);
    run.deepspeedText = *r.deepspeedVersion;
  }
  if (r.torchVersion) {
    run.torch = text::parseVersion(*r.torchVersion);
    run.torchText = *r.torchVersion;
  }
  run.pipelineDisabledOverlap = s.facts.pipelineDisabledOverlap;
  run.sawOverflowLines = s.numerics.overflowLines > 0;
  return run;
}

void appendUnique(std::vector<std::string>& to, const std::vector<std::string>& from) {
  for (const auto& k : from)
    if (std::find(to.begin(), to.end(), k) == to.end()) to.push_back(k);
}

// Adds a run-specific sentence under one "In this log:" paragraph.
void appendNote(LogFinding& f, const std::string& note) {
  if (note.empty()) return;
  f.mechanism += f.mechanism.find("\n\nIn this log: ") == std::string::npos ? "\n\nIn this log: " : " ";
  f.mechanism += note;
}

LogFinding baseFinding(const Accumulator& a) {
  const FailureInfo& info = failureInfo(a.id);
  LogFinding f;
  f.id = a.id;
  f.title = a.title;
  f.severity = a.severity;
  f.collateral = a.tier == Tier::Collateral;
  f.evidence = a.evidence;
  f.evidenceTotal = a.total;
  f.mechanism = std::string(info.mechanism);
  f.fix = std::string(info.fix);
  f.verify = std::string(info.verify);
  f.configKeys = splitList(info.configKeys);
  appendUnique(f.configKeys, a.configKeys);
  f.ruleCodes = splitList(info.ruleCodes);
  std::string details;
  for (const auto& d : a.details) details += (details.empty() ? "" : " ") + d;
  if (const std::string_view phase = tb::phaseName(a.phase); !phase.empty())
    details += (details.empty() ? "" : " ") + fmt::format("It was raised during {}.", phase);
  if (!a.frames.empty())
    details += (details.empty() ? "" : " ") + fmt::format("Innermost frames: {}.", fmt::join(a.frames, " → "));
  appendNote(f, details);
  return f;
}

std::string rankSourceNote(RankSource source) {
  return source == RankSource::LocalPrefix
             ? " (torchrun's prefix gives the local rank, which equals the global rank only on a single node)"
             : "";
}

std::string hostRankText(const State& s, const std::string& host) {
  auto it = s.facts.hostRanks.find(host);
  if (it == s.facts.hostRanks.end() || it->second.empty()) return {};
  std::vector<int> ranks = it->second;
  std::sort(ranks.begin(), ranks.end());
  return fmt::format(" Host {} runs ranks {}.", host, joinRanks(ranks));
}

struct RootRank {
  std::optional<int> rank;
  std::string reason;
};

RootRank chooseRootRank(const State& s, const Accumulator& root, const WatchdogAnalysis& w) {
  const FailureInfo& info = failureInfo(root.id);
  RootRank out;
  std::vector<int> otherRanks;
  for (int r : root.ranks.ranks)
    if (!root.firstRank || r != *root.firstRank) otherRanks.push_back(r);

  if (root.tier == Tier::Numeric || root.id == "fp16-loss-scale-floor") {
    out.reason = "These values are printed by rank 0 only (HF Trainer metrics, DeepSpeed's OVERFLOW and progress "
                 "lines), after gradients are combined across ranks; the log does not show which rank produced the "
                 "non-finite values.";
    return out;
  }
  if (info.rankIndependent) {
    out.reason = "This error comes from the configuration or the launch set-up and is raised the same way on every "
                 "rank; it does not point at one rank.";
    if (!root.ranks.empty()) out.reason += fmt::format(" Ranks reporting it: {}.", joinRanks(root.ranks.ranks));
    return out;
  }
  if (root.firstRank) {
    out.rank = root.firstRank;
    out.reason = fmt::format("The first {} line (line {}) carries the prefix of rank {}{}.", root.id, root.firstLine,
                             *root.firstRank, rankSourceNote(root.firstRankSource));
    if (root.id == "host-oom" && root.firstRankSource == RankSource::LocalPrefix)
      out.reason = fmt::format("torchrun reports local rank {} exiting with -9 (line {}); it is the first exit torchrun "
                               "observed.",
                               *root.firstRank, root.firstLine);
    if (!otherRanks.empty())
      out.reason += fmt::format(" Rank{} {} reported the same failure later.", otherRanks.size() > 1 ? "s" : "",
                                joinRanks(otherRanks));
    if (!w.timeoutRanks.empty()) {
      if (w.missing.size() == 1 && w.missing[0] == *root.firstRank)
        out.reason += fmt::format(" It is also the only rank missing from the timeout lines.");
      else if (std::binary_search(w.timeoutRanks.begin(), w.timeoutRanks.end(), *root.firstRank))
        out.reason += " Note: this rank also reported a collective timeout.";
    }
  } else if (w.missing.size() == 1 && !w.timeoutRanks.empty()) {
    out.rank = w.missing[0];
    out.reason = fmt::format("The failure line has no rank prefix. Rank {} is the only rank in 0–{} that did not "
                             "report a collective timeout, so it is the rank that stopped participating.",
                             w.missing[0], w.maxRank);
  } else {
    out.reason = "The failure line carries no rank prefix, so the log does not say which rank failed.";
    if (root.id == "host-oom")
      out.reason += " The launcher prints the exit code of the failed worker, but the command it prints is the last "
                    "one it built (the highest local rank), so that command does not identify the worker.";
    if (!root.firstHost.empty()) out.reason += fmt::format(" It came from host {}.", root.firstHost);
    out.reason += hostRankText(s, root.firstHost);
    if (!w.missing.empty() && !w.timeoutRanks.empty())
      out.reason += fmt::format(" Ranks without a timeout line: {}.", joinRanks(w.missing));
  }
  if (!w.timeoutRanks.empty() && root.firstLine > w.firstLine)
    out.reason += fmt::format(" Caution: it appears after the first collective timeout (line {}), so it may itself be "
                              "a consequence.",
                              w.firstLine);
  return out;
}

std::string timingNote(const Accumulator& root, const WatchdogAnalysis& w) {
  if (!root.firstTime || !w.firstTime || w.timeoutMs <= 0) return {};
  const double gap = *w.firstTime - *root.firstTime;
  if (gap <= 0) return {};
  const double timeout = static_cast<double>(w.timeoutMs) / 1000.0;  // milliseconds: exact in a double
  std::string note = fmt::format("The first timeout was logged about {} after the last timestamp before the "
                                 "initiating failure; the process-group timeout is {}",
                                 formatDuration(gap), formatDuration(timeout));
  note += std::abs(gap - timeout) <= std::max(0.2 * timeout, 120.0)
              ? ", consistent with the other ranks waiting for the failed one."
              : ".";
  return note;
}

bool isRootCandidate(const Accumulator& a, Tier tier) { return a.tier == tier && a.total > 0; }

const Accumulator* earliest(const State& s, Tier tier, std::optional<analysis::Severity> severity = std::nullopt) {
  const Accumulator* best = nullptr;
  for (const auto& a : s.accumulators) {
    if (!isRootCandidate(a, tier)) continue;
    if (severity && a.severity != *severity) continue;
    if (!best || a.firstLine < best->firstLine) best = &a;
  }
  return best;
}

std::string rowLabel(const std::optional<int>& rank, const std::string& host) {
  if (rank && !host.empty()) return fmt::format("rank {} @ {}", *rank, host);
  if (rank) return fmt::format("rank {}", *rank);
  if (!host.empty()) return host;
  return "(no prefix)";
}

void buildTimeline(const State& s, LogReport& r, const Accumulator* root, std::optional<int> highlightRank) {
  std::vector<const StreamState*> rows;
  for (const auto& st : s.streams)
    if (st.lineCount > 0) rows.push_back(&st);
  std::sort(rows.begin(), rows.end(), [](const StreamState* a, const StreamState* b) {
    if (a->rank.has_value() != b->rank.has_value()) return a->rank.has_value();
    if (a->rank && b->rank && *a->rank != *b->rank) return *a->rank < *b->rank;
    if (a->host.empty() != b->host.empty()) return !a->host.empty();
    return a->host < b->host;
  });
  bool highlightedRowExists = false;
  for (const StreamState* st : rows) {
    if (r.timeline.size() >= limits::kTimelineRows) {
      ++r.timelineRowsDropped;
      continue;
    }
    RankTimeline row;
    row.rank = st->rank;
    row.host = st->host;
    row.label = rowLabel(st->rank, st->host);
    row.firstLine = st->firstLine;
    row.lastLine = st->lastLine;
    row.firstOffset = st->firstOffset;
    row.lastOffset = st->lastOffset;
    row.lineCount = st->lineCount;
    row.events = st->events;
    row.eventsTotal = st->eventsTotal;
    for (auto& e : row.events)
      if (root && e.findingId == root->id && e.line == root->firstLine) e.initiating = true;
    if (highlightRank && st->rank == highlightRank) {
      highlightedRowExists = true;
      row.highlighted = true;
    }
    r.timeline.push_back(std::move(row));
  }
  if (highlightRank && !highlightedRowExists && r.timeline.size() < limits::kTimelineRows) {
    // The suspect printed nothing with its prefix: show it as an empty row.
    RankTimeline row;
    row.rank = highlightRank;
    row.label = fmt::format("rank {} (no lines)", *highlightRank);
    row.highlighted = true;
    auto pos = std::find_if(r.timeline.begin(), r.timeline.end(),
                            [&](const RankTimeline& t) { return !t.rank || *t.rank > *highlightRank; });
    r.timeline.insert(pos, std::move(row));
  }
}

LogFinding torchrunSummaryFinding(const State& s) {
  const FailureInfo& info = failureInfo("torchrun-failure-summary");
  LogFinding f;
  f.id = std::string(info.id);
  f.title = std::string(info.title);
  f.severity = info.severity;
  f.mechanism = std::string(info.mechanism);
  f.fix = std::string(info.fix);
  f.verify = std::string(info.verify);
  std::vector<std::string> details;
  for (const auto& e : s.torchrunEntries) {
    if (e.evidence && f.evidence.size() < limits::kEvidencePerFinding) f.evidence.push_back(*e.evidence);
    ++f.evidenceTotal;
    if (!e.rootCause || !e.exitCode) continue;
    std::string rank = e.rank ? fmt::format("rank {}", *e.rank) : std::string("an unknown rank");
    std::string meaning;
    if (*e.exitCode == -6) meaning = "SIGABRT, the NCCL watchdog's abort or a C++ abort, not a cause by itself";
    else if (*e.exitCode == -9) meaning = "SIGKILL, usually the host OOM killer";
    else if (*e.exitCode == -15) meaning = "SIGTERM, stopped by the launcher";
    else if (*e.exitCode == 1) meaning = "an uncaught Python exception";
    details.push_back(fmt::format("The summary lists {} first with exit code {}{}.", rank, *e.exitCode,
                                  meaning.empty() ? "" : " (" + meaning + ")"));
  }
  f.rankReason = "torchrun's root-cause entry is the first exit it observed; the analysis does not take the rank "
                 "from it.";
  for (const auto& d : details) appendNote(f, d);
  return f;
}

}  // namespace

LogReport diagnose(State& s) {
  LogReport r;
  r.linesRead = s.lineNo;
  r.bytesRead = s.bytes;
  r.deepspeedVersion = s.facts.deepspeedVersion ? s.facts.deepspeedVersion : s.options.deepspeedVersion;
  r.torchVersion = s.facts.torchVersion ? s.facts.torchVersion : s.options.torchVersion;
  r.ncclVersion = s.facts.ncclVersion;
  r.worldSize = s.facts.worldSize;
  r.resolvedConfig = s.facts.resolvedConfig;

  RankSet seen;
  for (const auto& st : s.streams)
    if (st.rank) seen.add(*st.rank);
  r.ranksSeen = seen.ranks;

  // With fp16, a non-finite norm on a step DeepSpeed skipped as an overflow is
  // expected: as many NaN norms as overflow lines, and a finite loss, is context.
  if (auto it = s.accumulatorIndex.find("nan-grad-norm"); it != s.accumulatorIndex.end()) {
    Accumulator& nan = s.accumulators[it->second];
    if (s.numerics.overflowLines > 0 && nan.total <= s.numerics.overflowLines &&
        s.accumulatorIndex.count("nan-loss") == 0) {
      nan.tier = Tier::Advisory;
      nan.severity = analysis::Severity::Information;
      addDetail(&nan, fmt::format("There are {} OVERFLOW line(s) for {} non-finite norm(s): these are probably the "
                                  "steps DeepSpeed skipped.",
                                  s.numerics.overflowLines, nan.total));
    }
  }

  const WatchdogAnalysis w = analyzeWatchdog(s, r.ranksSeen);
  const RunConfig run = runConfig(s, r);

  // 1. Earliest failure of a process on its own; 2. NCCL errors; 3. skewed collectives;
  // 4. numerics when nothing crashed and nothing hung.
  const Accumulator* root = earliest(s, Tier::Primary);
  if (!root) root = earliest(s, Tier::Communication);
  const bool desyncRoot = !root && w.skew;
  if (!root && !desyncRoot && w.timeoutRanks.empty() && s.unrankedTimeouts == 0 &&
      s.accumulatorIndex.find("nccl-watchdog-timeout") == s.accumulatorIndex.end()) {
    root = earliest(s, Tier::Numeric, analysis::Severity::Error);
    if (!root) root = earliest(s, Tier::Numeric);
  }

  RootRank rootRank;
  if (root) rootRank = chooseRootRank(s, *root, w);

  // Ranks hit by the failure: timeouts, aborts, SIGABRT/SIGTERM exits, peer-gone errors.
  RankSet collateral;
  for (int rank : w.timeoutRanks) collateral.add(rank);
  for (int rank : s.collateralRanks.ranks) collateral.add(rank);
  std::optional<int> initiatingRank = rootRank.rank;
  if (desyncRoot) initiatingRank = w.skewSuspect;
  std::vector<int> collateralRanks;
  for (int rank : collateral.ranks)
    if (!initiatingRank || rank != *initiatingRank) collateralRanks.push_back(rank);

  for (const Accumulator& a : s.accumulators) {
    LogFinding f = baseFinding(a);
    const bool isRoot = root && &a == root;
    if (isRoot) {
      f.initiating = true;
      f.collateral = false;
      f.initiatingRank = rootRank.rank;
      f.rankReason = rootRank.reason;
      f.collateralRanks = collateralRanks;
      appendNote(f, timingNote(a, w));
    }
    if (a.id == "nan-grad-norm" || a.id == "nan-loss" || a.id == "loss-stuck-zero" || a.id == "grad-norm-stuck") {
      if (a.total > 1)
        appendNote(f, fmt::format("{} of {} metric lines are affected.", a.total, s.numerics.metricLines));
      const NumericsNotes notes = numericsNotes(run);
      if (!notes.notes.empty())
        f.mechanism += fmt::format("\n\nFor this run: {}", fmt::join(notes.notes, " "));
      appendUnique(f.configKeys, notes.configKeys);
      appendUnique(f.ruleCodes, notes.ruleCodes);
      if (!notes.verify.empty()) f.verify = notes.verify;
      if (!isRoot)
        f.rankReason = "These values are printed by rank 0 only, after gradients are combined across ranks; the "
                       "log does not show which rank produced them.";
    }
    if (a.id == "fp16-overflow-skips") {
      const NumericsState& n = s.numerics;
      const double ratio = n.lastStep && *n.lastStep > 0 && n.lastSkipped
                               ? static_cast<double>(*n.lastSkipped) / static_cast<double>(*n.lastStep)
                               : 0.0;
      const bool frequent = n.overflowLines > 10 || ratio > 0.1 || n.floorHits > 0;
      f.severity = frequent ? analysis::Severity::Warning : analysis::Severity::Information;
      std::string d = fmt::format("{} overflow line{}", n.overflowLines, n.overflowLines == 1 ? "" : "s");
      if (n.minScale) d += fmt::format("; the scale went down to {:g}", *n.minScale);
      if (n.lastStep && n.lastSkipped) d += fmt::format("; the last progress line shows step={}, skipped={}", *n.lastStep, *n.lastSkipped);
      d += frequent ? ". That is more than start-up calibration." : ". A few early skips are normal.";
      appendNote(f, d);
      f.rankReason = "DeepSpeed prints OVERFLOW lines on rank 0 only; the overflow flag is combined across ranks, "
                     "so the line does not name a failing rank.";
    }
    if (a.id == "fp16-loss-scale-floor" && !isRoot)
      f.rankReason = "DeepSpeed prints loss-scale lines on rank 0 only; they do not name a failing rank.";
    if (a.id == "nccl-watchdog-timeout") {
      f.collateral = true;
      f.collateralRanks = w.timeoutRanks;
      std::vector<std::string> notes;
      if (!w.timeoutRanks.empty())
        notes.push_back(fmt::format("Rank{} {} reported a timeout.", w.timeoutRanks.size() > 1 ? "s" : "",
                                    joinRanks(w.timeoutRanks)));
      if (s.unrankedTimeouts > 0)
        notes.push_back(fmt::format("{} timeout line{} carry no rank.", s.unrankedTimeouts,
                                    s.unrankedTimeouts == 1 ? "" : "s"));
      if (w.timeoutMs > 0)
        notes.push_back(fmt::format("The timeout is {} ms ({}); the waiting collective started about that long before "
                                    "each line.",
                                    w.timeoutMs, formatDuration(static_cast<double>(w.timeoutMs) / 1000.0)));
      if (w.skew) notes.push_back("The ranks are not waiting in the same collective: " + w.skewText + ".");
      else if (w.groups.size() == 1 && w.timeoutRanks.size() > 1)
        notes.push_back(fmt::format("All of them wait in the same collective ({}){}.",
                                    opText(w.groups.begin()->first.first, w.groups.begin()->first.second),
                                    root ? "" : ": a rank is stuck elsewhere or the network failed"));
      for (const auto& n : notes) appendNote(f, n);
      if (root) {
        f.initiatingRank = rootRank.rank;
        f.rankReason = fmt::format("These timeouts are consequences of {} (line {}){}.", root->id, root->firstLine,
                                   rootRank.rank ? fmt::format(" on rank {}", *rootRank.rank) : "");
      } else if (desyncRoot) {
        f.initiatingRank = w.skewSuspect;
        f.rankReason = "See nccl-desync: the ranks were in different collectives.";
      } else if (w.missing.size() == 1) {
        f.initiatingRank = w.missing[0];
        f.rankReason = fmt::format("Suspect: rank {} is the only rank in 0–{} that did not report a timeout, so it "
                                   "is the one not taking part in the collective. Its own error is not in this log.",
                                   w.missing[0], w.maxRank);
      } else if (!w.missing.empty()) {
        f.rankReason = fmt::format("Ranks {} did not report a timeout; any of them may have stopped first (or their "
                                   "output is not in this log).",
                                   joinRanks(w.missing));
      } else if (!w.timeoutRanks.empty()) {
        f.rankReason = w.worldKnown
                           ? "Every rank reported the timeout on the same collective, so no rank stands out: "
                             "suspect a rank stuck outside collectives before it, or the network."
                           : "Every rank seen reported a timeout. The world size is not in the log, so a silent "
                             "rank above the highest one seen cannot be ruled out.";
      } else {
        f.rankReason = "The timeout lines carry no rank prefix.";
      }
    }
    if (a.id == "nccl-process-abort") {
      f.collateral = true;
      f.collateralRanks = a.ranks.ranks;
      f.rankReason = root ? fmt::format("Consequence of {} (line {}).", root->id, root->firstLine)
                          : "These processes were taken down after a failed collective; the lines do not name the "
                            "rank that caused it.";
    }
    if (a.id == "worker-exit") {
      if (root || !w.timeoutRanks.empty()) f.collateral = true;
      f.rankReason = root ? fmt::format("Exit codes reported after {} (line {}).", root->id, root->firstLine)
                          : "The exit lines come from the launcher, which does not reliably say which worker failed.";
    }
    if (a.id == "incomplete-traceback")
      f.rankReason = a.firstRank ? fmt::format("The traceback is on rank {}, but its exception is missing.", *a.firstRank)
                                 : "The traceback has no rank prefix and no exception line.";
    if (!isRoot && f.rankReason.empty() && a.firstRank && a.tier == Tier::Primary) {
      f.initiatingRank = std::nullopt;
      f.rankReason = fmt::format("First seen on rank {} (line {}); not chosen as the initiating failure because {}.",
                                 *a.firstRank, a.firstLine,
                                 root ? fmt::format("{} (line {}) came first", root->id, root->firstLine)
                                      : std::string("another failure was chosen"));
    } else if (!isRoot && f.rankReason.empty() && a.tier == Tier::Primary && root) {
      f.rankReason = fmt::format("Not chosen as the initiating failure: {} (line {}) came first.", root->id,
                                 root->firstLine);
    }
    r.findings.push_back(std::move(f));
  }

  if (desyncRoot) {
    const FailureInfo& info = failureInfo("nccl-desync");
    LogFinding f;
    f.id = std::string(info.id);
    f.title = std::string(info.title);
    f.severity = info.severity;
    f.initiating = true;
    f.initiatingRank = w.skewSuspect;
    f.rankReason = w.skewSuspect
                       ? fmt::format("Rank {} is the odd one out: {}. It is behind the others or on a different code "
                                     "path.",
                                     *w.skewSuspect, w.skewText)
                       : "The ranks split into several groups (" + w.skewText + "), so no single rank stands out.";
    f.collateralRanks = collateralRanks;
    f.mechanism = std::string(info.mechanism);
    appendNote(f, w.skewText + ".");
    f.fix = std::string(info.fix);
    f.verify = std::string(info.verify);
    auto it = s.accumulatorIndex.find("nccl-watchdog-timeout");
    if (it != s.accumulatorIndex.end()) {
      const Accumulator& timeouts = s.accumulators[it->second];
      f.evidence = timeouts.evidence;
      f.evidenceTotal = timeouts.total;
    }
    r.findings.push_back(std::move(f));
  }
  if (!s.torchrunEntries.empty()) r.findings.push_back(torchrunSummaryFinding(s));

  // Initiating first, then by severity, then by first evidence line.
  std::stable_sort(r.findings.begin(), r.findings.end(), [](const LogFinding& a, const LogFinding& b) {
    if (a.initiating != b.initiating) return a.initiating;
    if (a.severity != b.severity) return static_cast<int>(a.severity) < static_cast<int>(b.severity);
    const std::size_t la = a.evidence.empty() ? 0 : a.evidence.front().line;
    const std::size_t lb = b.evidence.empty() ? 0 : b.evidence.front().line;
    return la < lb;
  });

  // Verdict.
  const LogFinding* initiating = r.initiatingFinding();
  if (initiating) {
    const std::size_t line = initiating->evidence.empty() ? 0 : initiating->evidence.front().line;
    const bool numeric = root && root->tier == Tier::Numeric;
    r.verdict = numeric ? fmt::format("No process failure found; the main problem is \"{}\" (`{}`), first at line {}.",
                                      initiating->title, initiating->id, line)
                        : fmt::format("Initiating failure: \"{}\" (`{}`) at line {}, {}.", initiating->title,
                                      initiating->id, line,
                                      initiating->initiatingRank
                                          ? fmt::format("rank {}", *initiating->initiatingRank)
                                          : std::string("rank unknown"));
    if (!initiating->collateralRanks.empty())
      r.verdict += fmt::format(" Collateral: rank{} {} (timeouts, aborts or exits that follow from it).",
                               initiating->collateralRanks.size() > 1 ? "s" : "",
                               joinRanks(initiating->collateralRanks));
  } else if (!w.timeoutRanks.empty() || s.unrankedTimeouts > 0 ||
             s.accumulatorIndex.count("nccl-process-abort") > 0) {
    r.verdict = "The initiating failure is not in this log: every error found is a collective timeout or abort, "
                "which are consequences of another failure.";
    if (w.missing.size() == 1 && !w.timeoutRanks.empty())
      r.verdict += fmt::format(" Suspect: rank {}, the only rank without a timeout line; look for its own output.",
                               w.missing[0]);
  } else if (!s.exits.empty()) {
    r.verdict = "Workers exited with errors, but the initiating failure is not in this log (no exception, OOM or "
                "collective error was found).";
  } else if (s.accumulatorIndex.count("incomplete-traceback") > 0) {
    r.verdict = "No initiating failure found: a traceback has no exception line, so its cause cannot be read from "
                "this log.";
  } else if (!r.findings.empty()) {
    r.verdict = "No failure found; the findings below are warnings or context.";
  } else {
    r.verdict = fmt::format("No failure found in {} line{}.", r.linesRead, r.linesRead == 1 ? "" : "s");
  }

  std::optional<int> highlight = initiatingRank;
  if (!root && !desyncRoot && w.missing.size() == 1 && !w.timeoutRanks.empty()) highlight = w.missing[0];
  buildTimeline(s, r, root, highlight);
  if (desyncRoot)
    for (auto& row : r.timeline)
      for (auto& e : row.events)
        if (row.rank == w.skewSuspect && e.kind == TimelineEventKind::Timeout) e.initiating = true;
  return r;
}

}  // namespace dsls::logs::detail

// Watchdog timeouts across ranks: which ranks wait, in which collective, and which
// ranks are missing from the timeout lines.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "analysis/logs/diagnosis/diagnosis_steps.h"

namespace dsls::logs::detail {

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
      w.firstWhere = obs.where;
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
  // A rank timing out at several SeqNums waits in more than one process group, and SeqNums of
  // different groups cannot be compared: no skew is read from them.
  w.severalSeqRanks = s.severalSeqRanks.ranks;
  w.skew = (bySeq.size() > 1 || ops.size() > 1) && w.severalSeqRanks.empty();
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
        w.behindRank = a.first.first < b.first.first ? a.second[0] : b.second[0];
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

}  // namespace dsls::logs::detail

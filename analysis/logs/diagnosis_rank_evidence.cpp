// Rank evidence that does not come from the failure line's own prefix: torchrun's failure
// summary, a single-process launch, how many hosts the log shows, and whether the first
// lines of a failure on several ranks can be ordered by their timestamps.
#include <set>

#include <fmt/format.h>

#include "analysis/logs/diagnosis_steps.h"

namespace dsls::logs::detail {

bool multiNode(const State& s) {
  if (s.facts.hostRanks.size() > 1) return true;
  std::set<std::string_view> hosts;
  for (const auto& st : s.streams)
    if (!st.host.empty() && st.host != "(other ranks)") hosts.insert(st.host);
  for (const auto& e : s.torchrunEntries)
    if (!e.host.empty()) hosts.insert(e.host);
  return hosts.size() > 1;
}

std::optional<RootRank> torchrunRootCauseRank(const State& s) {
  if (!s.torchrunNoOtherFailures) return std::nullopt;
  const TorchrunEntry* root = nullptr;
  for (const auto& e : s.torchrunEntries) {
    if (!e.rootCause) continue;
    if (root) return std::nullopt;  // more than one root-cause entry
    root = &e;
  }
  // Exit code 1 is an uncaught exception in that process. Signals (-6, -9, -15) are often
  // sent by the watchdog or the agent after another rank failed: no rank from those.
  if (!root || !root->rank || !root->exitCode || *root->exitCode != 1) return std::nullopt;
  RootRank out;
  out.rank = root->rank;
  out.scope = RankScope::One;
  out.reason = fmt::format("torchrun's failure summary names rank {} as the root cause with exit code 1 (an "
                           "uncaught exception in that process) and lists no other failures (rank evidence: torchrun "
                           "root cause).",
                           *root->rank);
  return out;
}

std::optional<RootRank> singleProcessRank(const State& s) {
  if (!s.facts.worldSize || *s.facts.worldSize != 1) return std::nullopt;
  RootRank out;
  out.rank = 0;
  out.scope = RankScope::One;
  out.reason = "The launcher started a single process (world size 1), so the failure is on rank 0 (rank evidence: "
               "world size).";
  return out;
}

bool unorderedAcrossRanks(const Accumulator& root) {
  if (!root.otherRankSeen) return false;
  return !(root.firstLineTime && root.otherRankLineTime && *root.firstLineTime < *root.otherRankLineTime);
}

std::string rankEvidenceNote(const Accumulator& root) {
  return root.firstRankFamily.empty() ? std::string() : fmt::format(" (rank evidence: {})", root.firstRankFamily);
}

}  // namespace dsls::logs::detail

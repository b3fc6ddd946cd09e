// The steps of diagnose() (diagnosis.cpp), shared by the files that implement them:
// the watchdog lines across ranks (diagnosis_watchdog.cpp), the initiating failure and its
// rank (diagnosis_root.cpp), one finding per accumulator (diagnosis_findings.cpp), the
// timeline (diagnosis_timeline.cpp) and the run's config for the numerics notes
// (run_config.cpp).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/logs/analyzer_ops.h"
#include "analysis/logs/diagnosis/numerics_notes.h"

namespace dsls::logs::detail {

struct WatchdogAnalysis {
  std::vector<int> timeoutRanks;
  std::map<std::pair<long long, std::string>, std::vector<int>> groups;  // (SeqNum, OpType) -> ranks
  bool skew = false;
  std::optional<int> skewSuspect;
  // Two ranks, one on each side: the one at the lower SeqNum, named in the reason but not as the
  // initiating rank (the SeqNums alone do not say which one stopped).
  std::optional<int> behindRank;
  std::string skewText;
  std::vector<int> missing;  // ranks in 0..max that did not report a timeout
  std::vector<int> severalSeqRanks;  // ranks timing out at several SeqNums: more than one process group
  bool worldKnown = false;
  int maxRank = -1;
  long long timeoutMs = -1;
  std::size_t firstLine = 0;
  std::string firstWhere;  // "line N" (of its file in a job)
  std::optional<double> firstTime;
};

WatchdogAnalysis analyzeWatchdog(const State& s, const std::vector<int>& ranksSeen);
// "SeqNum=12 ALLREDUCE", or "work 12" without an op type.
std::string opText(long long seq, const std::string& op);

struct RootRank {
  std::optional<int> rank;
  std::string reason;
  RankScope scope = RankScope::Unknown;
  std::vector<int> ranks;  // the ranks that reported it, for scope All and Unknown
};

// Rank evidence from outside the failure line (diagnosis_rank_evidence.cpp).
// Lines from more than one host: a local rank or device index is then not a global rank.
bool multiNode(const State& s);
// torchrun's summary names one root cause, exit code 1 (an exception), and no other failures.
std::optional<RootRank> torchrunRootCauseRank(const State& s);
// The root-cause entry torchrunRootCauseRank reads exited before the first collective timeout
// (both timestamped): the timeouts waited for it.
bool rootCauseBeforeTimeouts(const State& s, const WatchdogAnalysis& w);
// The launcher started a single process: it is rank 0.
std::optional<RootRank> singleProcessRank(const State& s);
// The same plain exception (type, message, raising line) from every process of the job, with
// the world size in the log, before any collective or training step: deterministic, scope All.
std::optional<RootRank> sameExceptionOnEveryRank(const State& s, const Accumulator& root, const WatchdogAnalysis& w);
// A plain exception raised while the job's arguments and configuration are checked, or while a
// checkpoint is loaded, before any collective: every rank fails the same way.
std::optional<RootRank> raisedByArgumentChecks(const State& s, const Accumulator& root, const WatchdogAnalysis& w);

// A bare assertion over the job's sizes alone (`assert gradient_accumulation_steps % world_size
// == 0`), raised before any training step: every rank evaluates it alike.
std::optional<RootRank> assertionOnJobSizes(const State& s, const Accumulator& root);
// The same failure on several ranks and no timestamps that order its first lines.
bool unorderedAcrossRanks(const Accumulator& root);
// torchrun's agent: the first "failed (exitcode: N) local_rank: K" with a code of the worker's
// own (not 0, nor the -6/-15 the watchdog or the agent send after another failure).
const ExitObservation* firstAgentExit(const State& s);
RootRank agentExitRank(const State& s, const ExitObservation& exit);
// torchrun's summary lists workers with exit codes of their own (> 0, or a crash signal): their ranks.
std::vector<int> summaryOwnExitRanks(const State& s);
RootRank summaryExitRank(const State& s);
// " (rank evidence: torch-rank)" for the family that gave the first rank.
std::string rankEvidenceNote(const Accumulator& root);

// The initiating failure and who it took down.
struct RootChoice {
  const Accumulator* root = nullptr;  // a recorded failure, or nullptr
  bool desync = false;                // no recorded failure, but the ranks wait in different collectives
  RootRank rank;                      // of `root`
  std::optional<int> initiatingRank;  // of `root`, or the odd rank of a desync
  std::vector<int> collateralRanks;   // timeouts, aborts and exits other than the initiating rank
  bool isRoot(const Accumulator& a) const { return root && &a == root; }
};

RootChoice chooseRoot(const State& s, const WatchdogAnalysis& w);
// Gap between the initiating failure and the first timeout, against the process-group timeout.
std::string timingNote(const Accumulator& root, const WatchdogAnalysis& w);

LogFinding findingFor(const State& s, const Accumulator& a, const RootChoice& root, const WatchdogAnalysis& w,
                      const RunConfig& run);
LogFinding desyncFinding(const State& s, const RootChoice& root, const WatchdogAnalysis& w);
LogFinding torchrunSummaryFinding(const State& s);
// Adds a run-specific sentence under one "In this log:" paragraph.
void appendNote(LogFinding& f, const std::string& note);

void buildTimeline(const State& s, LogReport& r, const Accumulator* root, std::optional<int> highlightRank);

RunConfig runConfig(const State& s, const LogReport& r);

}  // namespace dsls::logs::detail

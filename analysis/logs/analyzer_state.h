// Internal state of LogAnalyzer. Every container here has a fixed cap so the
// analyser's memory does not grow with the length of the log.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/logs/fingerprints/failure_catalog.h"
#include "analysis/logs/fingerprints/fingerprints.h"
#include "analysis/logs/lines/line_literals.h"
#include "analysis/logs/lines/line_prefix.h"
#include "analysis/logs/lines/process_tags.h"
#include "analysis/logs/log_analyzer.h"
#include "analysis/logs/report/log_report.h"

namespace dsls::logs {

// The rank evidence of an NCCL debug line mapped through its process's Init line.
inline constexpr std::string_view kNcclInitFamily = "nccl-debug pid mapped by its Init line";
// The rank of an entry of torchrun's failure summary ("rank      : 4 (local_rank: 0)").
inline constexpr std::string_view kTorchrunSummaryFamily = "torchrun summary";
// Launchers' reports of the processes that ended (handlers_launchers.cpp).
inline constexpr std::string_view kSpawnProcessFamily = "torch.multiprocessing process index";
inline constexpr std::string_view kMpiLauncherFamily = "the MPI launcher's rank";
inline constexpr std::string_view kHorovodFamily = "Horovod's process rank";
inline constexpr std::string_view kSlurmTaskFamily = "srun's task number";
// The rank of a line of a job of several files, taken from its file's path.
inline constexpr std::string_view kFileNameFamily = "the rank in the file's path";
// A per-process tag the prefix table does not know, learned from the log (process_tags.h).
inline constexpr std::string_view kProcessTagFamily = "a per-process tag learned from the log";
// The rank an error names in its own text (Ascend's "RankID:3", Gaudi's "[Rank:7]", NCCL's
// "Invalid rank requested : 2/2", a monitored barrier's missing rank).
inline constexpr std::string_view kErrorTextFamily = "the rank the error's text names";

namespace limits {
constexpr std::size_t kEvidencePerFinding = 12;
constexpr std::size_t kEvidenceTextBytes = 400;
constexpr std::size_t kStreams = 1024;
constexpr std::size_t kAccumulators = 96;
constexpr std::size_t kRanksPerSet = 4096;
constexpr std::size_t kTimelineEventsPerStream = 16;
constexpr std::size_t kDetailsPerFinding = 8;
constexpr std::size_t kConfigKeysPerFinding = 16;
constexpr std::size_t kExitObservations = 256;
constexpr std::size_t kTorchrunEntries = 64;
constexpr std::size_t kPidMap = 4096;
constexpr std::size_t kHostRankEntries = 256;
constexpr std::size_t kFramesKept = 6;
constexpr std::size_t kTracebackInterruptions = 50;
constexpr std::size_t kRichExceptionPieces = 12;  // lines of one wrapped exception message after a rich box
constexpr std::size_t kRichExceptionBytes = 16384;  // and its bytes
constexpr std::size_t kStuckRun = 3;  // consecutive identical metric values that count as "stuck"
// A zero loss whose grad_norm is NaN, or repeats one value, on every line: degenerate weights
// or labels, not a small loss rounded to 0.0; two lines are then enough.
constexpr std::size_t kStuckRunCorroborated = 2;
constexpr std::size_t kTimelineRows = 256;
}  // namespace limits

// Distinct ranks, capped; `dropped` counts ranks beyond the cap.
struct RankSet {
  std::vector<int> ranks;  // sorted
  std::size_t dropped = 0;
  void add(int rank);
  bool contains(int rank) const;
  bool empty() const { return ranks.empty(); }
};

struct StreamState {
  std::optional<int> rank;
  RankSource rankSource = RankSource::None;
  std::string host;
  std::size_t firstLine = 0, lastLine = 0, firstOffset = 0, lastOffset = 0, lineCount = 0;
  std::optional<double> firstTime, lastTime;
  std::vector<TimelineEvent> events;
  std::size_t eventsTotal = 0;
  std::vector<std::string> eventIds;  // ids already on this row (one event per id per row)

  // Python traceback in progress.
  bool inTraceback = false;
  Evidence tracebackStart;
  std::size_t frames = 0;
  unsigned phase = 0;
  std::vector<std::string> lastFrames;  // "function (file:line)", innermost last
  std::string raisingCode;  // the code line quoted under the innermost frame so far
  bool codeNext = false;    // the last line was a frame: the next indented line is its code
  // Tracebacks begun before any exception line ended one: processes printing at once, their
  // lines interleaved. After the first exception line, the others' are still expected.
  std::size_t openTracebacks = 0;
  std::size_t interleavedLeft = 0, interleavedUntil = 0;
  std::size_t exceptionEndedAt = 0;  // the stream line of the last exception line that ended a traceback
  std::size_t interruptions = 0;
  bool startsWithCodeLine = false;  // the stream's first line is indented: the code of a frame cut off
  // rich's box: the display width of its bottom line and the stream line it ended on (the
  // exception line after it is wrapped at the console width, which the box shows).
  std::size_t richBoxWidth = 0;
  std::size_t richBoxEnd = 0;

  // Multi-line messages that follow an exception line.
  std::string pydanticModel;
  std::size_t pydanticLinesLeft = 0;
  std::string previousBareWord;  // pydantic prints the field name on the line before its error
  std::size_t hfMismatchLinesLeft = 0;
  // A launcher's two-line summary of the process that ended first ("Process name: ..." then
  // "Exit code: N"), and MPICH's banner exit code waiting for its exit string; each with the
  // stream's line count when it was seen.
  struct FirstProcessName {
    std::optional<int> rank;
    std::string_view family;
    std::string name;
    std::size_t at = 0;
  };
  std::optional<FirstProcessName> firstProcessName;
  std::optional<std::pair<long long, std::size_t>> mpichExitCode;
};

struct Accumulator {
  std::string key;  // id, or id + ":" + exception type
  FailureId failure = FailureId::PythonException;
  std::string id;  // failureCode(failure)
  std::string title;
  Tier tier = Tier::Advisory;
  analysis::Severity severity = analysis::Severity::Information;
  std::size_t firstLine = 0, firstOffset = 0;
  std::optional<int> firstRank;
  RankSource firstRankSource = RankSource::None;
  std::string firstRankFamily;  // the prefix family (or mapping) that gave firstRank
  std::string firstHost;
  std::optional<double> firstTime;
  std::optional<double> firstLineTime;      // the first occurrence's own timestamp
  bool otherRankSeen = false;               // an occurrence from a rank other than firstRank
  std::optional<double> otherRankLineTime;  // the own timestamp of the first such occurrence
  std::vector<Evidence> evidence;
  std::size_t total = 0;
  RankSet ranks;
  std::size_t unranked = 0;
  std::vector<std::string> details;     // run-specific facts for the mechanism text
  std::vector<std::string> configKeys;  // run-specific config keys
  unsigned phase = 0;
  std::vector<std::string> frames;  // traceback frames of the first occurrence
  std::string raisingCode;          // a plain exception: the code line that raised the first occurrence
  // A plain exception: "Type: message @ innermost frame" of the first occurrence, and
  // whether a later occurrence differed (another message or another raising line).
  std::string exceptionSignature;
  bool exceptionVaries = false;
};

struct WatchdogObservation {
  long long seq = -1;
  std::string opType;
  long long timeoutMs = -1;
  long long ranForMs = -1;
  long long lastEnqueued = -1, lastCompleted = -1;
  std::size_t line = 0;
  std::string where;  // "line N" (of its file in a job)
  std::optional<double> time;
};

enum class ExitSource { Launcher, Torchrun, TorchrunSummary, Signal };

struct ExitObservation {
  ExitSource source = ExitSource::Launcher;
  long long code = 0;
  std::optional<int> rank;
  std::optional<int> localRank;
  std::string host;
  std::size_t line = 0;
  bool rootCause = false;
};

struct TorchrunEntry {
  bool rootCause = false;
  std::optional<int> rank, localRank;
  std::optional<long long> exitCode;
  std::string host, signal;
  std::optional<double> time;        // its "time" field, seconds in the year
  std::optional<Evidence> evidence;  // the exitcode line, else the "[N]:" line
};

struct RunFacts {
  std::optional<std::string> deepspeedVersion, torchVersion, ncclVersion;
  std::optional<int> worldSize;
  // fairscale's model-parallel, data-parallel and pipeline sizes, as its setup prints them.
  std::optional<int> fairscaleModel, fairscaleData, fairscalePipeline;
  std::map<std::string, std::string> resolvedConfig;
  std::map<std::string, std::vector<int>> hostRanks;  // from global_rank_mapping
  bool pipelineDisabledOverlap = false;
};

struct MetricRun {
  std::size_t length = 0;
  std::vector<Evidence> pending;  // the first lines of the current run
  bool reported = false;          // the run reached its threshold
  // Zero-loss runs: every line so far shows a non-finite grad_norm, or the first line's value again.
  bool nanNorm = true, sameNorm = true;
  std::string normToken;
};

// Where a message's metric values lie, for every message of its shape (the same bytes once
// digits are folded, LineLiteralHits::shape): a plain decimal reads the same whatever its
// digits, but for being zero (metrics_scan.cpp).
struct MetricLayout {
  struct Value {
    bool present = false;
    std::uint16_t at = 0, size = 0;
  };
  std::uint64_t shape = 0;  // 0: unused
  Value loss, norm;
};

struct NumericsState {
  std::size_t metricLines = 0;
  std::array<MetricLayout, 4> layouts{};
  std::size_t nextLayout = 0;
  MetricRun zeroLoss, sqrt2GradNorm;
  std::size_t overflowLines = 0;
  std::optional<double> minScale;
  std::size_t floorHits = 0;
  std::optional<long long> lastStep, lastSkipped;
};

// A line that matched nothing and is long enough to have been cut at a terminal width.
struct WrapCandidate {
  bool pending = false;
  std::string raw, clean;
  bool cleanIsRaw = false;  // then `clean` is not kept
  std::size_t lineNo = 0, offset = 0, stream = 0;
  std::optional<LineOrigin> origin;
};

// The exception line after a rich box, held while the lines that continue its wrapped
// message arrive (continuation_lines.cpp).
struct RichExceptionCandidate {
  bool pending = false;
  std::string raw, clean;    // the pieces so far: raw with their line ends, clean joined by spaces
  std::size_t lineNo = 0, offset = 0, stream = 0;
  std::size_t width = 0;      // the console width: the box's, or the widest piece when wider
  std::size_t lastWidth = 0;  // of the last piece
  std::size_t pieces = 0;
  unsigned phase = 0;
  std::vector<std::string> frames;
  std::optional<LineOrigin> origin;
  PrefixView ranks;  // the first line's rank facts (its text views cleared): they may come from a file or a pid
};

// Lets the maps keyed by std::string be searched with a string_view, without a copy.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
};
template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

struct LogAnalyzer::State {
  AnalyzerOptions options;
  const FingerprintMatcher& matcher = FingerprintMatcher::shared();

  std::size_t lineNo = 0;  // in a job of several files: the line's position in the merged order
  std::size_t bytes = 0;
  const LineOrigin* origin = nullptr;  // the current line's file in a job of several files
  std::vector<std::string> files;      // the job's file paths
  std::optional<double> lastTime;
  std::optional<double> lineTime;  // the current line's own timestamp
  std::string ansiScratch;
  std::vector<FpMatch> matches;
  MatchMemo matchMemo{matcher};
  PrefixMemo prefixMemo;
  ProcessTags processTags;
  bool processTagsLearned = false;  // learned from the log's head before its first line
  LineLiteralMemo literalMemo;
  WrapCandidate wrap;
  RichExceptionCandidate richException;

  std::vector<StreamState> streams;
  StringMap<std::size_t> streamIndex;
  std::size_t lastStream = static_cast<std::size_t>(-1);
  std::vector<std::size_t> streamByRank;  // rank -> the row its last line went to (a hint, checked)
  std::string keyScratch;

  std::vector<Accumulator> accumulators;
  StringMap<std::size_t> accumulatorIndex;
  std::string recordKeyScratch;
  std::size_t droppedAccumulatorLines = 0;

  std::map<int, WatchdogObservation> watchdog;  // first timeout per rank, capped
  std::size_t unrankedTimeouts = 0;
  RankSet severalSeqRanks;  // ranks whose timeout lines show more than one SeqNum (several process groups)
  RankSet collateralRanks;  // ranks with aborts, collateral exceptions, SIGABRT/SIGTERM exits
  std::vector<ExitObservation> exits;
  std::size_t exitsDropped = 0;

  bool torchrunBlockActive = false;
  bool torchrunBlockRoot = false;
  bool torchrunNoOtherFailures = false;  // the summary printed <NO_OTHER_FAILURES>
  std::optional<TorchrunEntry> torchrunEntry;
  std::vector<TorchrunEntry> torchrunEntries;

  // Each launcher's first report of a process that ended with a rank: its family and the
  // status it gave (a later report with the same status is the same failure, not a consequence).
  std::vector<std::pair<std::string_view, long long>> firstProcessEnds;
  // The last Ascend error header ("(PID:1, Device:3, RankID:3) ERR02200 ..."): its rank and line,
  // for the lines of the same report around it.
  std::optional<std::pair<int, std::size_t>> deviceErrorRank;
  // torch.multiprocessing's "Process 3 terminated with the following error:": the first
  // process whose exception spawn re-raises (its index on its node).
  std::optional<int> spawnRaisedIndex;
  std::unordered_map<long long, int> pidToLocalRank;
  std::size_t launcherKills = 0;  // DeepSpeed launcher "Killing subprocess" lines: one per worker it started
  std::optional<Evidence> firstLauncherKill;  // the first of those lines, and its stream
  std::size_t firstLauncherKillStream = 0;
  // "host|pid" of NCCL debug lines -> (rank, nranks) from their Init lines; the communicator
  // with the most ranks (the world) wins over sub-groups.
  std::unordered_map<std::string, std::pair<int, int>> ncclProcessRank;
  RunFacts facts;
  NumericsState numerics;
};

}  // namespace dsls::logs

// Peels the prefixes that launchers and loggers put in front of a training-log line.
// Each prefix family is one row of line_prefix_table.inc (a name, an RE2 pattern and
// what it yields: rank, local rank, host, device, pid, timestamp); the rows are tried in
// order, and stacked prefixes (pdsh host + timestamp + rank tag) are peeled one by one.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::logs {

// Where a line's rank came from. torchrun's default prefix carries the local
// rank, which equals the global rank only on a single node; a ProcessTag is a launcher's
// number for the process (srun's task, an MPI rank), learned from the log's own tags.
enum class RankSource { None, Global, LocalPrefix, ProcessTag };

// What a prefix family yields (bit set).
enum PrefixYield : unsigned {
  kYieldNone = 0,
  kYieldRank = 1u << 0,
  kYieldLocalRank = 1u << 1,
  kYieldHost = 1u << 2,
  kYieldDevice = 1u << 3,
  kYieldPid = 1u << 4,
  kYieldTimestamp = 1u << 5,
  kYieldLevel = 1u << 6,
  kYieldSource = 1u << 7,
  // Not a group: the host must look like a pdsh host name (a digit in it, an IPv4 address or
  // "localhost", not an exception name), else the row does not match.
  kCheckHostName = 1u << 8,
};

// Outer prefixes stack; a Leading one is tried only before any prefix that yielded
// something; a Logger header ends the prefix (only Marker rows follow it); a Marker is a
// rank marker at the start of the message.
enum class PrefixKind { Outer, Leading, Logger, Marker };

struct PrefixFamily {
  std::string_view name;
  PrefixKind kind;
  unsigned yields;  // PrefixYield bits
  std::string_view firstBytes;  // inside of an RE2 character class: the bytes a match starts with
  std::string_view needs;       // a literal every match contains, or empty
  std::string_view pattern;
};

// The table, in the order the rows are tried.
const std::vector<PrefixFamily>& prefixFamilies();

struct LineInfo {
  std::optional<int> rank;
  std::string host;
  std::string timestamp;
  std::string level;
  std::string_view message;  // view into the parsed line
  std::optional<int> localRank;
  RankSource rankSource = RankSource::None;
  std::string source;              // "launch.py:316:sigkill_handler", "ProcessGroupNCCL.cpp:607"
  std::optional<int> cudaDevice;   // NCCL debug lines: a device index on the host, not a rank
  std::optional<long long> pid;    // NCCL debug lines, Ray actors
  std::string rankFamily;          // the family the rank came from, e.g. "torch-rank"
  std::vector<std::string> families;  // every family peeled, in table order
};

LineInfo parsePrefixes(std::string_view line);

// Allocation-free form used on the hot path; all views point into the line or the table.
struct PrefixView {
  std::optional<int> rank;
  std::optional<int> localRank;
  RankSource rankSource = RankSource::None;
  std::string_view host, timestamp, level, source, message;
  std::optional<int> cudaDevice;
  std::optional<long long> pid;
  std::string_view rankFamily;  // name of the family that gave `rank`
  bool hadLoggerPrefix = false;  // a Logger row matched (DeepSpeed logger, glog, Python logging, NCCL debug)
  unsigned familyMask = 0;       // bit i: row i of the table matched
};

// The captures of recent logger-header matches, by family and matched text: a row's
// captures depend on its matched text alone, so a header seen before ("ERROR:torch:", an
// NCCL process's "host:pid:tid [dev] ") is not captured again. One per analysis, not
// shared between threads; bounded.
class PrefixMemo {
 public:
  static constexpr std::size_t kSlots = 256;
  static constexpr std::size_t kMaxBytes = 128;
  struct Slot {
    bool used = false;
    std::size_t row = 0;
    std::string text;
    std::array<std::pair<int, int>, 16> groups{};  // offset and length in `text`; offset -1: no value
  };
  Slot& slotFor(std::size_t row, std::string_view text);
  // Whether the row's headers are worth remembering: they repeated often enough so far. A
  // row whose headers hold timestamps is matched with its captures in one RE2 call instead.
  bool headersRepeat(std::size_t row) const;
  void headerLookedUp(std::size_t row, bool found);

  // Matches of the short tags ("worker-3: ", "[rank5]: ") and the bytes that could have
  // made each longer: a line that starts with a remembered match followed by none of
  // those bytes has that match (see AnchoredProgram), without RE2.
  struct Tag : Slot {
    std::array<std::uint64_t, 4> continuing{};
    std::uint32_t lastUse = 0;
  };
  static constexpr std::size_t kTagSlots = 512;
  static constexpr std::size_t kTagBytes = 64;
  static constexpr std::size_t kTagLengths = 8;  // distinct match lengths looked up per row
  static constexpr std::size_t kRows = 32;
  const Tag* findTag(std::size_t row, std::string_view window);
  Tag* tagToFill(std::size_t row, std::string_view text);  // nullptr: not worth remembering
  void tagFound(std::size_t row) { ++rowStats_[row].hits; }

  // Starts of windows where a row's automaton dies without a match ("[2024-" for the
  // line-number row): a window starting with them fails that row, without RE2.
  struct Dead {
    bool used = false;
    std::size_t row = 0;
    std::string text;
    std::uint32_t lastUse = 0;
  };
  static constexpr std::size_t kDeadSlots = 256;
  // The length of a remembered dead start of `window` for the row, or 0.
  std::size_t deadPrefix(std::size_t row, std::string_view window);
  void rememberDead(std::size_t row, std::string_view start);
  bool remembersDead(std::size_t row) const;  // false once the row's dead starts seldom repeat

  // Whole parses of a line's prefix ("worker-3: [rank3]: " and the byte after it), each
  // kept with the bytes its outcome was proved to depend on: every row tried was ruled out
  // by those bytes (or by a needed literal, looked for again on each line), and every row
  // that matched was a remembered tag, or a match that no byte after it could have made
  // longer. A line starting with those bytes parses the same. Where every row treats all
  // digits alike (a class holds all ten or none), so does a line whose bytes differ from
  // them in digits alone ("[2024-05-01 00:03:05,295] ", "[rank5]: "): the key holds its
  // digits as '0', and the numbers (rank, device, pid) are read again from the line.
  struct NeedsCheck {
    std::uint8_t row = 0;
    std::uint16_t offset = 0;  // where the row was tried
  };
  static constexpr std::size_t kChainSlots = 256;
  static constexpr std::size_t kChainBytes = 96;
  static constexpr std::size_t kChainLengths = 16;  // distinct key lengths looked up per line
  static constexpr std::size_t kChainNeeds = 8;
  // Where the digits of each number the parse took lie in the line: offset plus one (0: the
  // number is absent) and length.
  struct NumberSpans {
    using Span = std::pair<std::uint16_t, std::uint16_t>;
    Span rank{}, localRank{}, cudaDevice{}, pid{};
  };
  struct Chain {
    std::string key;           // the bytes the parse depends on (digits as '0' where alike)
    PrefixView view;           // views at their offsets in the key; numbers read again
    NumberSpans numbers;
    std::size_t consumed = 0;  // where the message starts
    std::uint32_t tagRows = 0;
    std::array<NeedsCheck, kChainNeeds> needs{};
    std::size_t needCount = 0;
    std::uint32_t lastUse = 0;
  };
  const Chain* findChain(std::string_view line);
  Chain* chainToFill(std::string_view key);  // nullptr: too long, or too many key lengths
  bool hasRoomFor(std::string_view key) const;  // chainToFill would give a chain

 private:
  struct RowStats {
    std::array<std::uint16_t, kTagLengths> lengths{};  // 0: unused
    std::uint32_t stored = 0, hits = 0;
    std::uint32_t headerLookups = 0, headerHits = 0;
    std::array<std::uint16_t, kTagLengths> deadLengths{};  // 0: unused
    std::uint32_t deadStored = 0, deadHits = 0;
  };
  std::array<Dead*, 2> deadSlots(std::size_t row, std::string_view text);
  std::array<Dead, kDeadSlots> dead_{};
  std::array<Tag*, 2> tagSlots(std::size_t row, std::string_view text);
  std::array<Slot, kSlots> slots_{};
  std::array<Tag, kTagSlots> tags_{};
  std::array<RowStats, kRows> rowStats_{};
  std::array<Chain, kChainSlots> chains_{};
  std::array<std::uint16_t, kChainLengths> chainLengths_{};  // 0: unused
  static std::uint64_t chainHash(std::string_view key);
  static std::array<std::size_t, 2> chainSlots(std::uint64_t hash);
  // The hash of each slot's key (0: empty), apart from the chains: a lookup reads two words
  // of this small array before any chain.
  std::array<std::uint64_t, kChainSlots> chainHashes_{};
  // The chain found last, tried before any hash: a log's lines come in runs of one shape.
  std::size_t lastChain_ = kChainSlots;
  std::uint32_t clock_ = 0;
};

PrefixView parsePrefixView(std::string_view line, PrefixMemo* memo = nullptr);
// Whether remembered parses hold for lines that differ in digits alone: every row treats all
// ten digits alike, or is gated by a needed literal. When false, a log whose prefixes carry
// timestamps is parsed afresh on every line (several times slower).
bool prefixMemoFoldsDigits();

}  // namespace dsls::logs

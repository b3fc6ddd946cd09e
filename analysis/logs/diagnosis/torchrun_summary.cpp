// torchrun's failure summary:
//   Failures: / Root Cause (first observed failure):
//   [0]:
//     time      : 2025-05-01_11:12:35
//     host      : node-1
//     rank      : 0 (local_rank: 0)
//     exitcode  : -6 (pid: 3431)
//     traceback : Signal 6 (SIGABRT) received by PID 3431
// The root-cause entry is the first exit torchrun observed, not a causal finding.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/logs/analyzer_ops.h"
#include "analysis/logs/lines/text_util.h"
#include "analysis/logs/lines/timestamps.h"

namespace dsls::logs::detail {
namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::optional<std::pair<std::string_view, std::string_view>> field(std::string_view t) {
  const std::size_t colon = t.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 14) return std::nullopt;
  const std::string_view name = text::trimRight(t.substr(0, colon));
  for (char ch : name)
    if (!(text::isAlpha(ch) || ch == '_')) return std::nullopt;
  return std::make_pair(name, text::trim(t.substr(colon + 1)));
}

}  // namespace

std::string_view crashSignalName(long long exitCode) {
  switch (exitCode) {
    case -4: return "SIGILL";
    case -7: return "SIGBUS";
    case -8: return "SIGFPE";
    case -11: return "SIGSEGV";
    default: return {};
  }
}

void finishTorchrunEntry(State& s) {
  if (!s.torchrunEntry) return;
  TorchrunEntry entry = std::move(*s.torchrunEntry);
  s.torchrunEntry.reset();
  if (!entry.exitCode) return;
  if (s.torchrunEntries.size() < limits::kTorchrunEntries) s.torchrunEntries.push_back(entry);
  const long long code = *entry.exitCode;
  if ((code == -6 || code == -15) && entry.rank) s.collateralRanks.add(*entry.rank);
  ExitObservation e;
  e.source = ExitSource::TorchrunSummary;
  e.code = code;
  e.rank = entry.rank;
  e.localRank = entry.localRank;
  e.host = entry.host;
  e.rootCause = entry.rootCause;
  e.line = entry.evidence ? entry.evidence->line : 0;
  if (s.exits.size() < limits::kExitObservations) s.exits.push_back(e);
  const std::string_view crash = crashSignalName(code);
  if ((code > 0 || !crash.empty()) && entry.evidence) {
    // An exit code of the worker's own (1: an uncaught exception), or a crash of its own process.
    Occurrence occ;
    occ.evidence = *entry.evidence;
    occ.rank = entry.rank;
    occ.rankSource = entry.rank ? RankSource::Global : RankSource::None;
    occ.rankFamily = kTorchrunSummaryFamily;
    Accumulator* a = record(s, FailureId::WorkerExit, occ);
    if (crash.empty())
      addDetail(a, "torchrun's failure summary lists workers that exited with a code of their own (1 is an uncaught "
                   "exception).");
    else
      addDetail(a, fmt::format("torchrun's failure summary lists a worker that exited with {} ({}): its process "
                               "crashed on its own, in native code (a C++/CUDA extension, a driver, corrupt memory).",
                               code, crash));
  }
  if (code == -9 && entry.evidence) {
    Occurrence occ;
    occ.evidence = *entry.evidence;
    occ.rank = entry.rank;
    occ.rankSource = entry.rank ? RankSource::Global : RankSource::None;
    occ.rankFamily = kTorchrunSummaryFamily;
    Accumulator* a = record(s, FailureId::HostOom, occ);
    addDetail(a, fmt::format("torchrun's summary lists rank {} with exit code -9 (SIGKILL).",
                             entry.rank ? std::to_string(*entry.rank) : std::string("?")));
  }
}

// "[3]:" alone on a line: an entry of the summary, also when a paste starts below its header.
bool startsTorchrunEntry(std::string_view message) {
  const std::string_view t = text::trim(message);
  if (t.size() < 4 || t.size() > 12 || t[0] != '[' || t.substr(t.size() - 2) != "]:") return false;
  for (char ch : t.substr(1, t.size() - 3))
    if (!text::isDigit(ch)) return false;
  return true;
}

void stepTorchrunSummary(State& s, const LineContext& c, std::string_view message) {
  const std::string_view t = text::trim(message);
  if (t == "<NO_OTHER_FAILURES>") {
    s.torchrunNoOtherFailures = true;
    return;
  }
  if (t.empty() || startsWith(t, "Root Cause") || startsWith(t, "Failures:") || startsWith(t, "Other Failures")) return;
  if (startsWith(t, "---")) {
    finishTorchrunEntry(s);
    return;
  }
  if (startsWith(t, "===")) {
    finishTorchrunEntry(s);
    s.torchrunBlockActive = false;
    return;
  }
  // "[0]:" starts an entry
  if (t.size() >= 4 && t[0] == '[' && t.back() == ':' && t[t.size() - 2] == ']') {
    finishTorchrunEntry(s);
    TorchrunEntry entry;
    entry.rootCause = s.torchrunBlockRoot;
    entry.evidence = makeEvidence(c);
    s.torchrunEntry = std::move(entry);
    return;
  }
  const auto f = field(t);
  if (!f || !s.torchrunEntry) {
    finishTorchrunEntry(s);
    s.torchrunBlockActive = false;
    return;
  }
  TorchrunEntry& entry = *s.torchrunEntry;
  const auto [name, value] = *f;
  if (name == "rank") {
    std::size_t p = 0;
    if (auto r = text::parseIntAt(value, p)) entry.rank = static_cast<int>(*r);
    const std::size_t local = value.find("local_rank:");
    if (local != std::string_view::npos) {
      std::size_t q = local + 11;
      while (q < value.size() && value[q] == ' ') ++q;
      if (auto l = text::parseIntAt(value, q)) entry.localRank = static_cast<int>(*l);
    }
  } else if (name == "exitcode") {
    std::size_t p = 0;
    if (auto code = text::parseIntAt(value, p)) entry.exitCode = *code;
    entry.evidence = makeEvidence(c);
  } else if (name == "host") {
    entry.host = text::sanitize(value, 120);
  } else if (name == "time") {
    // "2024-08-20_11:37:36": torchrun joins the date and the time with '_'.
    std::string stamp(value.substr(0, 40));
    std::replace(stamp.begin(), stamp.end(), '_', ' ');
    entry.time = secondsInYear(stamp);
  } else if (name == "traceback") {
    const std::size_t sig = value.find("(SIG");
    if (sig != std::string_view::npos) {
      const std::size_t close = value.find(')', sig);
      if (close != std::string_view::npos) entry.signal = text::sanitize(value.substr(sig + 1, close - sig - 1), 16);
    }
  }
}

}  // namespace dsls::logs::detail

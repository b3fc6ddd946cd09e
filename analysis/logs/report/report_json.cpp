// JSON form of a LogReport; the schema is documented in docs/logs/report-schema.md.
#include "analysis/logs/report/log_report.h"

#include <nlohmann/json.hpp>

namespace dsls::logs {
namespace {

nlohmann::json optionalInt(const std::optional<int>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }
nlohmann::json optionalString(const std::optional<std::string>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

const char* kindName(TimelineEventKind k) {
  switch (k) {
    case TimelineEventKind::Failure: return "failure";
    case TimelineEventKind::Timeout: return "timeout";
    case TimelineEventKind::Abort: return "abort";
    case TimelineEventKind::Exit: return "exit";
    case TimelineEventKind::Warning: return "warning";
  }
  return "failure";
}

}  // namespace

std::string_view rankScopeName(RankScope scope) {
  switch (scope) {
    case RankScope::One: return "one";
    case RankScope::All: return "all";
    case RankScope::Unknown: return "unknown";
  }
  return "unknown";
}

std::string rankLabel(const LogFinding& f) {
  if (f.initiatingRank) return std::to_string(*f.initiatingRank);
  if (f.rankScope == RankScope::All) return "every rank";
  if (f.rankScope == RankScope::Unknown && f.scopeRanks.size() > 1) {
    std::string ranks;
    for (std::size_t i = 0; i < f.scopeRanks.size() && i < 16; ++i) ranks += (i ? ", " : "") + std::to_string(f.scopeRanks[i]);
    if (f.scopeRanks.size() > 16) ranks += ", …";
    return "unknown (ranks " + ranks + " report it)";
  }
  return "unknown";
}

std::string severityName(analysis::Severity s) {
  switch (s) {
    case analysis::Severity::Error: return "error";
    case analysis::Severity::Warning: return "warning";
    case analysis::Severity::Information: return "information";
    case analysis::Severity::Hint: return "hint";
  }
  return "error";
}

const LogFinding* LogReport::initiatingFinding() const {
  for (const auto& f : findings)
    if (f.initiating) return &f;
  return nullptr;
}

nlohmann::json LogReport::toJson() const {
  using nlohmann::json;
  json out = json::object();
  out["verdict"] = verdict;
  json list = json::array();
  for (const LogFinding& f : findings) {
    json evidenceList = json::array();
    for (const Evidence& e : f.evidence) {
      evidenceList.push_back({{"line", e.line},
                              {"byteOffset", e.byteOffset},
                              {"length", e.length},
                              {"text", e.text},
                              {"rank", optionalInt(e.rank)},
                              {"host", e.host}});
      if (e.file && *e.file < files.size()) evidenceList.back()["file"] = files[*e.file];
    }
    list.push_back({{"id", f.id},
                    {"title", f.title},
                    {"severity", severityName(f.severity)},
                    {"initiating", f.initiating},
                    {"collateral", f.collateral},
                    {"initiatingRank", optionalInt(f.initiatingRank)},
                    {"rankReason", f.rankReason},
                    {"rankScope", f.rankScope ? nlohmann::json(rankScopeName(*f.rankScope)) : nlohmann::json()},
                    {"scopeRanks", f.scopeRanks},
                    {"collateralRanks", f.collateralRanks},
                    {"evidence", std::move(evidenceList)},
                    {"evidenceTotal", f.evidenceTotal},
                    {"mechanism", f.mechanism},
                    {"fix", f.fix},
                    {"verify", f.verify},
                    {"configKeys", f.configKeys},
                    {"ruleCodes", f.ruleCodes}});
  }
  out["findings"] = std::move(list);
  out["deepspeedVersion"] = optionalString(deepspeedVersion);
  out["torchVersion"] = optionalString(torchVersion);
  out["ncclVersion"] = optionalString(ncclVersion);
  out["ranks"] = ranksSeen;
  out["worldSize"] = optionalInt(worldSize);
  out["resolvedConfig"] = resolvedConfig;
  json rows = json::array();
  for (const RankTimeline& row : timeline) {
    json events = json::array();
    for (const TimelineEvent& e : row.events) {
      events.push_back({{"line", e.line},
                        {"byteOffset", e.byteOffset},
                        {"kind", kindName(e.kind)},
                        {"findingId", e.findingId},
                        {"label", e.label},
                        {"initiating", e.initiating}});
      if (e.file && *e.file < files.size()) events.back()["file"] = files[*e.file];
      if (e.time) events.back()["time"] = *e.time;
    }
    rows.push_back({{"label", row.label},
                    {"rank", optionalInt(row.rank)},
                    {"host", row.host},
                    {"firstLine", row.firstLine},
                    {"lastLine", row.lastLine},
                    {"lineCount", row.lineCount},
                    {"highlighted", row.highlighted},
                    {"events", std::move(events)},
                    {"eventsTotal", row.eventsTotal}});
    if (row.firstTime) rows.back()["firstTime"] = *row.firstTime;
    if (row.lastTime) rows.back()["lastTime"] = *row.lastTime;
  }
  out["timeline"] = std::move(rows);
  out["timelineAxis"] = wallClockTimeline() ? "wall-clock" : "lines";
  out["timelineRowsDropped"] = timelineRowsDropped;
  out["linesRead"] = linesRead;
  out["bytesRead"] = bytesRead;
  return out;
}

}  // namespace dsls::logs

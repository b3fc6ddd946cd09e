// The per-rank timeline of the report: one row per rank (or host, or unprefixed lines),
// the initiating event marked, and an empty row for a suspect that printed nothing.
#include <algorithm>

#include <fmt/format.h>

#include "analysis/logs/diagnosis/diagnosis_steps.h"

namespace dsls::logs::detail {
namespace {

std::string rowLabel(const std::optional<int>& rank, const std::string& host) {
  if (rank && !host.empty()) return fmt::format("rank {} @ {}", *rank, host);
  if (rank) return fmt::format("rank {}", *rank);
  if (!host.empty()) return host;
  return "(no prefix)";
}

}  // namespace

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
    row.firstTime = st->firstTime;
    row.lastTime = st->lastTime;
    row.events = st->events;
    row.eventsTotal = st->eventsTotal;
    for (auto& e : row.events)
      if (root && e.findingId == root->id && e.seq == root->firstLine) e.initiating = true;
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

}  // namespace dsls::logs::detail

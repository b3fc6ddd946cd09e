// A small self-contained SVG: one row per rank across the log's line range,
// with the first/last line of the rank, failures, timeouts, aborts and exits
// marked, and the initiating event (and rank) highlighted.
#include <algorithm>

#include <fmt/format.h>

#include "analysis/logs/report/log_report.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs {
namespace {

constexpr int kWidth = 760;
constexpr int kLabelRight = 150;
constexpr int kPlotLeft = 160;
constexpr int kPlotRight = 740;
constexpr int kTop = 34;
constexpr int kRowHeight = 18;
constexpr std::size_t kMaxRows = 64;

struct Style {
  const char* fill;
  const char* name;
};

Style styleOf(TimelineEventKind k) {
  switch (k) {
    case TimelineEventKind::Failure: return {"#c62828", "failure"};
    case TimelineEventKind::Timeout: return {"#ef6c00", "timeout"};
    case TimelineEventKind::Abort: return {"#6d4c41", "abort"};
    case TimelineEventKind::Exit: return {"#37474f", "exit"};
    case TimelineEventKind::Warning: return {"#f9a825", "warning"};
  }
  return {"#c62828", "failure"};
}

std::string marker(TimelineEventKind kind, double x, double y, double r, const std::string& extra) {
  const Style st = styleOf(kind);
  switch (kind) {
    case TimelineEventKind::Timeout:
      return fmt::format(R"(<polygon points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="{}"{}/>)", x,
                         y - r, x + r, y, x, y + r, x - r, y, st.fill, extra);
    case TimelineEventKind::Abort:
    case TimelineEventKind::Exit:
      return fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"{}/>)", x - r * 0.8,
                         y - r * 0.8, r * 1.6, r * 1.6, st.fill, extra);
    case TimelineEventKind::Warning:
      return fmt::format(R"(<polygon points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="{}"{}/>)", x, y - r,
                         x + r, y + r * 0.8, x - r, y + r * 0.8, st.fill, extra);
    case TimelineEventKind::Failure:
    default:
      return fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="{:.1f}" fill="{}"{}/>)", x, y, r, st.fill, extra);
  }
}

// The range of the timestamps on the timeline (seconds in the year).
struct TimeRange {
  double first = 0, last = 0;
  bool any = false;
  void add(const std::optional<double>& t) {
    if (!t) return;
    if (!any || *t < first) first = *t;
    if (!any || *t > last) last = *t;
    any = true;
  }
};

TimeRange timeRangeOf(const std::vector<RankTimeline>& rows) {
  TimeRange range;
  for (const RankTimeline& row : rows) {
    range.add(row.firstTime);
    range.add(row.lastTime);
    for (const TimelineEvent& e : row.events) range.add(e.time);
  }
  return range;
}

// "14:03:10" (the day is left out: the axis spans a run, and the year is not in glog lines).
std::string clockText(double secondsInYear) {
  const long long s = static_cast<long long>(secondsInYear) % 86400;
  return fmt::format("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
}

// Where a row and its events sit: by wall-clock time when the lines carry timestamps, else by
// position in the log (the merged order for a job of several files).
struct Axis {
  TimeRange time;
  bool wallClock = false;
  double totalLines = 1;
  double xOfFraction(double t) const { return kPlotLeft + std::clamp(t, 0.0, 1.0) * (kPlotRight - kPlotLeft); }
  double xOfLine(std::size_t line) const {
    return xOfFraction(totalLines <= 1 ? 0.0 : (static_cast<double>(line) - 1.0) / (totalLines - 1.0));
  }
  double xOfTime(const std::optional<double>& t) const {
    const double span = time.last - time.first;
    return xOfFraction(!t || span <= 0 ? 0.0 : (*t - time.first) / span);
  }
  double xOfEvent(const TimelineEvent& e) const { return wallClock ? xOfTime(e.time) : xOfLine(e.seq ? e.seq : e.line); }
};

std::string eventPlace(const LogReport& r, const TimelineEvent& e) {
  std::string where = "line " + std::to_string(e.line);
  if (e.file && *e.file < r.files.size()) where = r.files[*e.file] + ":" + std::to_string(e.line);
  if (e.time) where += ", " + clockText(*e.time);
  return where;
}

}  // namespace

bool LogReport::wallClockTimeline() const {
  const TimeRange range = timeRangeOf(timeline);
  return range.any && range.last > range.first;
}

std::string LogReport::timelineSvg() const {
  const std::size_t rows = std::min(timeline.size(), kMaxRows);
  const std::size_t hiddenRows = timeline.size() - rows + timelineRowsDropped;
  const int legendY = kTop + static_cast<int>(rows) * kRowHeight + (hiddenRows ? 18 : 4) + 12;
  const int height = legendY + 14;
  Axis axis;
  axis.time = timeRangeOf(timeline);
  axis.wallClock = wallClockTimeline();
  axis.totalLines = static_cast<double>(std::max<std::size_t>(linesRead, 1));

  std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="sans-serif" font-size="11">)",
      kWidth, height);
  svg += "\n<title>Log timeline by rank</title>\n";
  svg += fmt::format(R"(<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>)", kWidth, height);
  if (axis.wallClock) {
    svg += fmt::format(R"(<text x="{}" y="14" font-weight="bold">Timeline by rank (wall clock, {}–{})</text>)", kPlotLeft,
                       clockText(axis.time.first), clockText(axis.time.last));
    svg += fmt::format(R"(<text x="{}" y="28" fill="#555">{}</text>)", kPlotLeft, clockText(axis.time.first));
    svg += fmt::format(R"(<text x="{}" y="28" fill="#555" text-anchor="end">{}</text>)", kPlotRight,
                       clockText(axis.time.last));
  } else {
    svg += fmt::format(R"(<text x="{}" y="14" font-weight="bold">Timeline by rank (log lines 1–{})</text>)", kPlotLeft,
                       linesRead);
    svg += fmt::format(R"(<text x="{}" y="28" fill="#555">line 1</text>)", kPlotLeft);
    svg += fmt::format(R"(<text x="{}" y="28" fill="#555" text-anchor="end">line {}</text>)", kPlotRight, linesRead);
  }
  svg += "\n";

  for (std::size_t i = 0; i < rows; ++i) {
    const RankTimeline& row = timeline[i];
    const double y = kTop + static_cast<double>(i) * kRowHeight + kRowHeight / 2.0;
    if (row.highlighted)
      svg += fmt::format(R"(<rect x="0" y="{:.1f}" width="{}" height="{}" fill="#fdecea"/>)", y - kRowHeight / 2.0,
                         kWidth, kRowHeight);
    svg += fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="end"{}>{}</text>)", kLabelRight, y + 4,
                       row.highlighted ? R"( fill="#b71c1c" font-weight="bold")" : "",
                       text::xmlEscape(text::sanitize(row.label, 40)));
    svg += fmt::format(R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#e0e0e0"/>)", kPlotLeft, y,
                       kPlotRight, y);
    if (row.lineCount > 0) {
      const double x1 = axis.wallClock ? axis.xOfTime(row.firstTime) : axis.xOfLine(row.firstLine);
      const double x2 = std::max(axis.wallClock ? axis.xOfTime(row.lastTime) : axis.xOfLine(row.lastLine), x1 + 2.0);
      // A job's rows span several files: their line count, not a line range of one file.
      const std::string span = files.empty() ? fmt::format("lines {}–{} ", row.firstLine, row.lastLine) : "";
      svg += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="6" fill="#90a4ae"><title>{}: {}({} line{})</title></rect>)",
          x1, y - 3, x2 - x1, text::xmlEscape(text::sanitize(row.label, 40)), span, row.lineCount,
          row.lineCount == 1 ? "" : "s");
    }
    for (const TimelineEvent& e : row.events) {
      const double x = axis.xOfEvent(e);
      const std::string tip = fmt::format("<title>{}: {}{}</title>", text::xmlEscape(eventPlace(*this, e)),
                                          text::xmlEscape(text::sanitize(e.label, 120)),
                                          e.initiating ? " (initiating failure)" : "");
      if (e.initiating) {
        svg += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="8" fill="none" stroke="#000" stroke-width="2"/>)", x, y);
        svg += marker(e.kind, x, y, 6, "");
        svg += fmt::format(R"(<g>{}<circle cx="{:.1f}" cy="{:.1f}" r="8" fill-opacity="0"/></g>)", tip, x, y);
      } else {
        svg += "<g>" + tip + marker(e.kind, x, y, 4, "") + "</g>";
      }
    }
    svg += "\n";
  }
  if (hiddenRows)
    svg += fmt::format(R"(<text x="{}" y="{}" fill="#555">… {} more row{} not drawn</text>)", kPlotLeft,
                       kTop + static_cast<int>(rows) * kRowHeight + 12, hiddenRows, hiddenRows == 1 ? "" : "s");

  // Legend.
  int x = kPlotLeft;
  for (TimelineEventKind k : {TimelineEventKind::Failure, TimelineEventKind::Timeout, TimelineEventKind::Abort,
                              TimelineEventKind::Exit, TimelineEventKind::Warning}) {
    svg += marker(k, x + 4, legendY - 4, 4, "");
    svg += fmt::format(R"(<text x="{}" y="{}">{}</text>)", x + 12, legendY, styleOf(k).name);
    x += 80;
  }
  svg += fmt::format(R"(<circle cx="{}" cy="{}" r="6" fill="none" stroke="#000" stroke-width="2"/>)", x + 4, legendY - 4);
  svg += fmt::format(R"(<text x="{}" y="{}">initiating</text>)", x + 14, legendY);
  svg += "\n</svg>\n";
  return svg;
}

}  // namespace dsls::logs

#include "analysis/facade/log_job.h"

#include "analysis/logs/analyze.h"
#include "analysis/logs/diagnostics.h"
#include "analysis/logs/lines/line_prefix.h"
#include "analysis/logs/log_analyzer.h"
#include "analysis/logs/report/log_report.h"
#include "analysis/logs/lines/timestamps.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace dsls::analysis {

struct LineBatcher::State {
  LineBatch batch;
  std::size_t lineNo = 0;
  logs::LineSplitter splitter;

  State()
      : splitter([this](std::string_view line, std::size_t offset) {
          LineBatch::Line l;
          l.start = batch.bytes.size();
          l.size = line.size();
          l.offset = offset;
          l.number = ++lineNo;
          const logs::PrefixView pv = logs::parsePrefixView(line);
          if (!pv.timestamp.empty()) l.time = logs::secondsInYear(pv.timestamp);
          batch.bytes.append(line);
          batch.lines.push_back(l);
        }) {}
};

LineBatcher::LineBatcher() : state_(std::make_unique<State>()) {}
LineBatcher::~LineBatcher() = default;
void LineBatcher::feed(std::string_view chunk) { state_->splitter.feed(chunk); }
void LineBatcher::finish() { state_->splitter.finish(); }

LineBatch LineBatcher::take() {
  LineBatch out = std::move(state_->batch);
  // The next batch is about as large: reserving it keeps growth from doubling the memory held.
  state_->batch = {};
  state_->batch.bytes.reserve(out.bytes.size() + out.bytes.size() / 8);
  state_->batch.lines.reserve(out.lines.size() + out.lines.size() / 8);
  return out;
}

namespace {

const nlohmann::json* errorMessage(const nlohmann::json& doc) {
  if (!doc.is_object()) return nullptr;
  auto it = doc.find("message");
  if (it == doc.end() || !it->is_object()) return nullptr;
  return &*it;
}

nlohmann::json parseErrorJson(std::string_view json) {
  return nlohmann::json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
}

}  // namespace

LineBatch errorJsonLines(std::string_view json) {
  LineBatch out;
  const nlohmann::json doc = parseErrorJson(json);
  const nlohmann::json* message = errorMessage(doc);
  if (!message) return out;
  // The evidence points at the file's first line: error.json is one JSON document.
  auto add = [&](std::string_view text) {
    LineBatch::Line l;
    l.start = out.bytes.size();
    l.size = text.size();
    l.number = 1;
    out.bytes.append(text);
    out.lines.push_back(l);
  };
  auto info = message->find("extraInfo");
  if (info != message->end() && info->is_object()) {
    auto stack = info->find("py_callstack");
    if (stack != info->end() && stack->is_string()) {
      const std::string& text = stack->get_ref<const std::string&>();
      std::size_t start = 0;
      while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        add(std::string_view(text).substr(start, end - start));
        start = end + 1;
      }
      return out;
    }
  }
  auto text = message->find("message");
  if (text != message->end() && text->is_string()) add(text->get_ref<const std::string&>());
  return out;
}

namespace {

std::optional<long long> recordedTimestamp(const nlohmann::json& message) {
  auto info = message.find("extraInfo");
  if (info == message.end() || !info->is_object()) return std::nullopt;
  auto ts = info->find("timestamp");
  if (ts == info->end()) return std::nullopt;
  if (ts->is_number_integer()) return ts->get<long long>();
  if (!ts->is_string()) return std::nullopt;
  const std::string& s = ts->get_ref<const std::string&>();
  if (s.empty() || s.size() > 12 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoll(s);
}

// "2024-12-06 09:12:45 UTC".
std::string utcText(long long epoch) {
  const long long days = epoch / 86400, rest = epoch % 86400;
  // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
  const long long z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
  const long long doe = z - era * 146097, yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
  const long long day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9;
  const long long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC", year, month, day, rest / 3600, (rest / 60) % 60, rest % 60);
}

}  // namespace

std::optional<RecordedError> recordedError(std::string_view json) {
  const nlohmann::json doc = parseErrorJson(json);
  const nlohmann::json* message = errorMessage(doc);
  if (!message) return std::nullopt;
  RecordedError out;
  auto text = message->find("message");
  if (text != message->end() && text->is_string()) out.message = text->get<std::string>();
  out.timestamp = recordedTimestamp(*message);
  return out;
}

namespace {

// One file's place in the merge: its current batch and line, and the last timestamp it showed.
struct Cursor {
  LineBatchSource* source = nullptr;
  LineBatch batch;
  std::size_t index = 0;
  bool done = false;
  std::optional<double> time;  // the current line's own timestamp, else the file's last one
  double progress = 0;         // the source's progress when the current batch was taken

  const LineBatch::Line& line() const { return batch.lines[index]; }
  bool load() {
    while (!done && index >= batch.lines.size()) {
      index = 0;
      batch = {};
      if (!source->next(batch)) done = true;
      progress = source->progress();
    }
    if (done) return false;
    if (line().time) time = line().time;
    return true;
  }
  void advance() {
    ++index;
    load();
  }
};

// Wall-clock order where both files have shown a timestamp; how far each file has been read
// otherwise (files without timestamps interleave evenly); the file order on a tie.
bool before(const Cursor& a, std::size_t ia, const Cursor& b, std::size_t ib) {
  if (a.time && b.time && *a.time != *b.time) return *a.time < *b.time;
  if (!(a.time && b.time)) {
    if (a.progress != b.progress) return a.progress < b.progress;
  }
  return ia < ib;
}


}  // namespace

namespace {

// The mean of the files' shares handed over: each file counts alike, whatever its size.
double mergedShare(const std::vector<LineBatchSource*>& sources) {
  if (sources.empty()) return 1.0;
  double sum = 0;
  for (const LineBatchSource* s : sources) sum += s->progress();
  return sum / static_cast<double>(sources.size());
}

}  // namespace

JobReport analyzeJob(const RunFolderJob& job, std::vector<std::string> paths,
                     const std::vector<LineBatchSource*>& sources, const Settings& settings,
                     const Cancellation& cancel, const JobProgress& progress) {
  // Lines between looks at the cancellation and reports of progress.
  constexpr std::size_t kLinesPerCheck = 4096;
  logs::LogAnalyzer analyzer(logs::AnalyzerOptions::fromSettings(settings));
  analyzer.setFiles(paths);
  std::vector<Cursor> cursors(sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    cursors[i].source = sources[i];
    cursors[i].load();
  }
  logs::LineOrigin origin;
  std::vector<std::size_t> fileBytes(sources.size(), 0);
  for (std::size_t merged = 1;; ++merged) {
    if (merged % kLinesPerCheck == 0) {
      cancel.throwIfRequested();
      if (progress) progress(mergedShare(sources));
    }
    std::size_t best = cursors.size();
    for (std::size_t i = 0; i < cursors.size(); ++i)
      if (!cursors[i].done && (best == cursors.size() || before(cursors[i], i, cursors[best], best))) best = i;
    if (best == cursors.size()) break;
    Cursor& c = cursors[best];
    const LineBatch::Line& l = c.line();
    const RankFile& file = job.files[best];
    origin.file = best;
    origin.line = l.number;
    origin.rank = file.rank;
    origin.localRank = file.localRank;
    analyzer.addLine(c.batch.text(l), l.offset, origin);
    fileBytes[best] = std::max(fileBytes[best], l.offset + l.size);
    c.advance();
  }
  JobReport out;
  out.job = job;
  out.paths = std::move(paths);
  logs::LogReport report = analyzer.finish();
  report.bytesRead = 0;
  for (std::size_t bytes : fileBytes) report.bytesRead += bytes;
  out.report = std::make_shared<const logs::LogReport>(std::move(report));
  return out;
}

namespace {
bool localRanks(const RunFolderJob& job);
}  // namespace

std::vector<Finding> jobFileFindings(const JobReport& job, std::size_t file) {
  if (!job.report) return {};
  return logs::toJobFileDiagnostics(*job.report, file);
}

nlohmann::json jobJson(const JobReport& job) {
  nlohmann::json files = nlohmann::json::array();
  for (std::size_t i = 0; i < job.job.files.size(); ++i) {
    const RankFile& f = job.job.files[i];
    files.push_back({{"path", i < job.paths.size() ? job.paths[i] : f.path},
                     {"role", roleName(f.role)},
                     {"rank", f.rank},
                     {"localRank", f.localRank},
                     {"node", f.node ? nlohmann::json(*f.node) : nlohmann::json()}});
    if (i < job.recordedErrors.size() && job.recordedErrors[i])
      files.back()["recordedError"] = {
          {"message", job.recordedErrors[i]->message},
          {"timestamp", job.recordedErrors[i]->timestamp ? nlohmann::json(*job.recordedErrors[i]->timestamp)
                                                         : nlohmann::json()}};
  }
  return {{"layout", layoutName(job.job.layout)},
          {"root", job.job.root},
          {"name", job.job.name},
          {"ranks", job.job.ranks},
          {"localRanks", localRanks(job.job)},
          {"files", std::move(files)},
          {"report", job.report ? job.report->toJson() : nlohmann::json()}};
}

namespace {

std::string rankRange(const std::vector<int>& ranks) {
  if (ranks.empty()) return "none";
  bool contiguous = ranks.back() - ranks.front() + 1 == static_cast<int>(ranks.size());
  if (contiguous && ranks.size() > 2) return fmt::format("{}–{}", ranks.front(), ranks.back());
  std::string out;
  for (std::size_t i = 0; i < ranks.size() && i < 32; ++i) out += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > 32) out += fmt::format(", … ({} more)", ranks.size() - 32);
  return out;
}

bool localRanks(const RunFolderJob& job) {
  return std::any_of(job.files.begin(), job.files.end(), [](const RankFile& f) { return f.localRank; });
}

}  // namespace

std::string jobDescription(const JobReport& job) {
  const bool local = localRanks(job.job);
  std::string out = fmt::format("{}: one job of {} rank file{} ({}), {} {}{}.", job.job.root.empty() ? "." : job.job.root,
                                job.job.files.size(), job.job.files.size() == 1 ? "" : "s", layoutName(job.job.layout),
                                local ? "local ranks" : job.job.ranks.size() == 1 ? "rank" : "ranks",
                                rankRange(job.job.ranks),
                                local ? " (the folder names give local ranks, which equal global ranks only on a "
                                        "single node)"
                                      : "");
  for (std::size_t i = 0; i < job.recordedErrors.size() && i < job.job.files.size(); ++i) {
    const auto& e = job.recordedErrors[i];
    if (!e) continue;
    const RankFile& f = job.job.files[i];
    out += fmt::format(" {} records {} {}{}{}.", i < job.paths.size() ? job.paths[i] : f.path,
                       f.localRank ? "local rank" : "rank", f.rank, e->timestamp ? " at " + utcText(*e->timestamp) : "",
                       e->message.empty() ? "" : ": " + e->message.substr(0, 300));
  }
  return out;
}

std::string jobSummary(const JobReport& job) {
  std::string out = jobDescription(job);
  if (job.report) out += " " + job.report->verdict;
  return out;
}

std::string jobMarkdown(const JobReport& job) {
  std::string md = "# Job " + job.job.name + "\n\n" + jobDescription(job) + "\n\n";
  if (job.report) md += job.report->markdown();
  return md;
}

}  // namespace dsls::analysis

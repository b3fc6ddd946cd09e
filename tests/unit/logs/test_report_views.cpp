// The report's JSON, Markdown and SVG forms, editor diagnostics and hovers.
#include "log_generator.h"
#include "log_test_support.h"

#include <nlohmann/json.hpp>

using namespace dsls::logs;
using namespace dsls::logs::testing;
using dsls::analysis::Severity;

namespace {

// Rank 2 runs out of GPU memory; ranks 0, 1, 3 time out.
LogReport oomReport(std::string* textOut = nullptr) {
  LogWriter w;
  w.ds("", 10, "INFO", "launch.py:163:main", "dist_world_size=4");
  w.traceback("", 2, true, backwardFrames(), "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.");
  for (int r : {0, 1, 3}) w.watchdogTimeout("", r, 2000, 9, "ALLREDUCE", 600000);
  if (textOut) *textOut = w.text();
  return analyzeText(w.text());
}

}  // namespace

TEST_CASE("JSON follows the documented schema") {
  const LogReport r = oomReport();
  const nlohmann::json j = r.toJson();
  for (const char* key : {"verdict", "findings", "deepspeedVersion", "torchVersion", "ncclVersion", "ranks", "worldSize",
                          "resolvedConfig", "timeline", "timelineRowsDropped", "linesRead", "bytesRead"})
    CHECK_MESSAGE(j.contains(key), key);
  REQUIRE(j["findings"].is_array());
  const auto& root = j["findings"][0];
  for (const char* key : {"id", "title", "severity", "initiating", "collateral", "initiatingRank", "rankReason",
                          "collateralRanks", "evidence", "evidenceTotal", "mechanism", "fix", "verify", "configKeys",
                          "ruleCodes"})
    CHECK_MESSAGE(root.contains(key), key);
  CHECK(root["id"] == "cuda-oom");
  CHECK(root["initiating"] == true);
  CHECK(root["initiatingRank"] == 2);
  CHECK(root["severity"] == "error");
  CHECK(root["collateralRanks"] == nlohmann::json::array({0, 1, 3}));
  const auto& ev = root["evidence"][0];
  for (const char* key : {"line", "byteOffset", "length", "text", "rank", "host"}) CHECK_MESSAGE(ev.contains(key), key);
  CHECK(ev["rank"] == 2);
  CHECK(j["deepspeedVersion"].is_null());
  CHECK(j["worldSize"] == 4);
  // A finding without a rank serialises null, not a number.
  bool sawNull = false;
  for (const auto& f : j["findings"])
    if (f["initiatingRank"].is_null()) sawNull = true;
  CHECK(sawNull);
  CHECK_NOTHROW((void)j.dump());
}

TEST_CASE("Markdown leads with the failure, rank, collateral, fix and verify, then the timeline") {
  const std::string md = oomReport().markdown();
  const auto pos = [&](const char* s) { return md.find(s); };
  REQUIRE(pos("## Initiating failure: GPU out of memory") != std::string::npos);
  CHECK(pos("- **Rank:** 2") != std::string::npos);
  CHECK(pos("- **Collateral ranks:** 0, 1, 3") != std::string::npos);
  CHECK(pos("**Fix.**") < pos("## Collateral"));
  CHECK(pos("**Verify.**") < pos("## Collateral"));
  CHECK(pos("## Timeline") < pos("<svg"));
  CHECK(md.rfind("</svg>") != std::string::npos);
}

TEST_CASE("SVG: one row per rank, initiating event and rank highlighted, text escaped") {
  LogReport r = oomReport();
  const std::string svg = r.timelineSvg();
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  for (const char* label : {">rank 0<", ">rank 1<", ">rank 2<", ">rank 3<"}) CHECK_MESSAGE(svg.find(label) != std::string::npos, label);
  CHECK(svg.find("(initiating failure)") != std::string::npos);
  CHECK(svg.find("fill=\"#b71c1c\" font-weight=\"bold\">rank 2<") != std::string::npos);
  // Balanced tags for the elements we open.
  auto count = [&](const std::string& s) {
    std::size_t n = 0;
    for (std::size_t p = svg.find(s); p != std::string::npos; p = svg.find(s, p + 1)) ++n;
    return n;
  };
  CHECK(count("<g>") == count("</g>"));
  CHECK(count("<title>") == count("</title>"));
  r.timeline[0].label = "<script>&\"";
  const std::string escaped = r.timelineSvg();
  CHECK(escaped.find("<script>") == std::string::npos);
  CHECK(escaped.find("&lt;script&gt;&amp;&quot;") != std::string::npos);
}

TEST_CASE("SVG caps the number of rows") {
  LogWriter w;
  for (int r = 0; r < 200; ++r) w.raw(fmt::format("[rank{}]: hello", r));
  const LogReport r = analyzeText(w.text());
  CHECK(r.timeline.size() == 200);
  const std::string svg = r.timelineSvg();
  CHECK(svg.find("136 more rows not drawn") != std::string::npos);
  CHECK(svg.find(">rank 64<") == std::string::npos);
}

TEST_CASE("diagnostics: error at the initiating line, information on collateral with a related pointer") {
  std::string text;
  const LogReport r = oomReport(&text);
  const auto diags = toDiagnostics(r, "train.log");
  REQUIRE_FALSE(diags.empty());
  const auto& first = diags.front();
  CHECK(first.code == "log-cuda-oom");
  CHECK(first.severity == Severity::Error);
  CHECK(text.substr(first.range.begin, first.range.end - first.range.begin).find("OutOfMemoryError") !=
        std::string::npos);
  std::size_t collateral = 0;
  for (const auto& d : diags) {
    if (d.code != "log-nccl-watchdog-timeout") continue;
    ++collateral;
    CHECK(d.severity == Severity::Information);
    REQUIRE(d.related.size() == 1);
    CHECK(d.related[0].range == first.range);
    CHECK(d.related[0].message.find("train.log:") != std::string::npos);
    CHECK(text.substr(d.range.begin, d.range.end - d.range.begin).find("Watchdog caught") != std::string::npos);
  }
  CHECK(collateral == 3);
}

TEST_CASE("diagnostics without an initiating failure keep the collateral severity") {
  const LogReport r = analyzeText(readFixture("part-c-ds5066-watchdog.log"));
  const auto diags = toDiagnostics(r, "x.log");
  bool sawTimeout = false;
  for (const auto& d : diags)
    if (d.code == "log-nccl-watchdog-timeout") {
      sawTimeout = true;
      CHECK(d.severity == Severity::Error);
      CHECK(d.related.empty());
      CHECK(d.message.find("not in this log") != std::string::npos);
    }
  CHECK(sawTimeout);
}

TEST_CASE("hover on an evidence line explains it; elsewhere nothing") {
  std::string text;
  const LogReport r = oomReport(&text);
  const std::size_t oomLine = text.find("torch.OutOfMemoryError");
  const std::size_t lineStart = text.rfind('\n', oomLine) + 1;
  auto hover = hoverAt(r, oomLine + 5);
  REQUIRE(hover);
  CHECK(hover->find("GPU out of memory") != std::string::npos);
  CHECK(hover->find("initiating failure") != std::string::npos);
  CHECK(hover->find("**Fix.**") != std::string::npos);
  CHECK(hoverAt(r, lineStart));
  const std::size_t timeout = text.find("Watchdog caught");
  hover = hoverAt(r, timeout);
  REQUIRE(hover);
  CHECK(hover->find("collateral") != std::string::npos);
  CHECK_FALSE(hoverAt(r, 0));  // the launcher line is not evidence
  CHECK_FALSE(hoverAt(r, text.size() + 100));
}

// Line splitting, streaming over chunk boundaries, bounded memory and throughput.
#include <chrono>
#include <sstream>

#include "log_generator.h"
#include "log_test_support.h"

#include <nlohmann/json.hpp>

using namespace dsls::logs;
using namespace dsls::logs::testing;

namespace {

std::vector<std::pair<std::string, std::size_t>> split(const std::string& text, std::size_t chunk) {
  std::vector<std::pair<std::string, std::size_t>> lines;
  LineSplitter s([&](std::string_view l, std::size_t off) { lines.emplace_back(std::string(l), off); });
  for (std::size_t i = 0; i < text.size(); i += chunk) s.feed(std::string_view(text).substr(i, chunk));
  s.finish();
  return lines;
}

// An istream that hands out data in small, odd-sized reads.
class TrickleBuf : public std::streambuf {
 public:
  TrickleBuf(const std::string& data, std::size_t step) : data_(data), step_(step) {}

 protected:
  int_type underflow() override {
    if (pos_ >= data_.size()) return traits_type::eof();
    const std::size_t n = std::min(step_, data_.size() - pos_);
    buf_.assign(data_, pos_, n);
    pos_ += n;
    setg(buf_.data(), buf_.data(), buf_.data() + n);
    return traits_type::to_int_type(buf_[0]);
  }

 private:
  const std::string& data_;
  std::size_t step_;
  std::size_t pos_ = 0;
  std::string buf_;
};

// Sizes here are far below 2^53, so the conversion is exact.
double megabytes(std::size_t bytes) { return static_cast<double>(bytes) / 1e6; }

std::string cleanLine(std::size_t i) {
  switch (i % 4) {
    case 0: return fmt::format("{{'loss': {:.4f}, 'grad_norm': {:.3f}, 'learning_rate': 2e-05, 'epoch': {:.3f}}}", 2.0 - static_cast<double>(i % 1000) * 1e-3, 0.5 + static_cast<double>(i % 7) * 0.01, static_cast<double>(i) * 1e-6);
    case 1: return fmt::format("[2024-05-01 10:{:02}:{:02},000] [INFO] [logging.py:96:log_dist] [Rank 0] step={}, skipped=0, lr=[2e-05], mom=[(0.9, 0.999)]", i / 60 % 60, i % 60, i);
    case 2: return fmt::format("worker-{}: [2024-05-01 10:00:00,000] [INFO] [engine.py:1900:step] rank {} micro step {} done in {} ms", i % 8 / 4, i % 8, i, 120 + i % 13);
    default: return fmt::format("gpu-node-{}:1234:1250 [{}] NCCL INFO Channel {:02}/02 :    0   1   2   3   4   5   6   7", i % 2, i % 8, i % 32);
  }
}

}  // namespace

TEST_CASE("line terminators: \\n, \\r\\n and a lone \\r, across every chunk size") {
  const std::string text = "a\nbb\r\nccc\rdddd\n\neee";
  const std::vector<std::pair<std::string, std::size_t>> expected = {
      {"a", 0}, {"bb", 2}, {"ccc", 6}, {"dddd", 10}, {"", 15}, {"eee", 16}};
  for (std::size_t chunk = 1; chunk <= text.size(); ++chunk) {
    INFO("chunk " << chunk);
    CHECK(split(text, chunk) == expected);
  }
  CHECK(split("x\n", 1) == std::vector<std::pair<std::string, std::size_t>>{{"x", 0}});
  CHECK(split("", 1).empty());
  CHECK(split("\r\n\r\n", 1) == std::vector<std::pair<std::string, std::size_t>>{{"", 0}, {"", 2}});
}

TEST_CASE("the line splitter tells where the next line starts after each chunk") {
  const std::string text = "a\nbb\r\nccc\rdddd\n\neee\r\r\nf";
  for (std::size_t chunk = 1; chunk <= text.size(); ++chunk) {
    INFO("chunk " << chunk);
    std::vector<std::size_t> offsets;
    LineSplitter s([&](std::string_view, std::size_t off) { offsets.push_back(off); });
    std::vector<std::pair<std::size_t, std::size_t>> told;  // (offset, lines before)
    std::size_t open = 0;  // chunks ending in a '\r', where the splitter cannot tell
    for (std::size_t i = 0; i < text.size(); i += chunk) {
      s.feed(std::string_view(text).substr(i, chunk));
      std::size_t offset = 0, before = 0;
      if (s.nextLineStart(offset, before)) told.emplace_back(offset, before);
      else ++open;
    }
    s.finish();
    for (const auto& [offset, before] : told) {
      if (before < offsets.size()) CHECK(offsets[before] == offset);
      else CHECK(offset == text.size());
    }
    CHECK(told.size() + open == (text.size() + chunk - 1) / chunk);
  }
}

TEST_CASE("overlong lines are cut for analysis but offsets stay exact") {
  std::vector<std::pair<std::string, std::size_t>> lines;
  LineSplitter s([&](std::string_view l, std::size_t off) { lines.emplace_back(std::string(l), off); }, 8);
  const std::string text = std::string(30, 'x') + "\nshort\n" + std::string(20, 'y');
  for (std::size_t i = 0; i < text.size(); i += 7) s.feed(std::string_view(text).substr(i, 7));
  s.finish();
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == std::make_pair(std::string(8, 'x'), std::size_t{0}));
  CHECK(lines[1] == std::make_pair(std::string("short"), std::size_t{31}));
  CHECK(lines[2] == std::make_pair(std::string(8, 'y'), std::size_t{37}));
}

TEST_CASE("analyzeStream over odd-sized reads equals analyzeText") {
  std::string text;
  const LogReport expected = [&] {
    LogWriter w;
    for (int i = 0; i < 50; ++i) w.metrics("", 1.0, i == 30 ? "nan" : "0.4", i * 0.01);
    w.traceback("", 1, true, backwardFrames(), "torch.OutOfMemoryError: CUDA out of memory.");
    for (int r : {0, 2, 3}) w.watchdogTimeout("", r, 100, 4, "ALLREDUCE", 600000);
    text = w.text();
    // Mixed terminators to exercise the splitter.
    for (std::size_t p = text.find('\n'); p != std::string::npos; p = text.find('\n', p + 3)) text.replace(p, 1, "\r\n");
    return analyzeText(text);
  }();
  for (std::size_t step : {1u, 3u, 4096u}) {
    TrickleBuf buf(text, step);
    std::istream in(&buf);
    const LogReport got = analyzeStream(in);
    CHECK(got.toJson() == expected.toJson());
  }
  const LogFinding* root = expected.initiatingFinding();
  REQUIRE(root);
  CHECK(text.substr(root->evidence[0].byteOffset, root->evidence[0].length).find("OutOfMemoryError") != std::string::npos);
}

TEST_CASE("looksLikeTrainingLog") {
  CHECK(looksLikeTrainingLog("[rank3]: Traceback (most recent call last):\n"));
  CHECK(looksLikeTrainingLog("[2024-02-03 11:48:17,107] [INFO] [launch.py:316:sigkill_handler] Killing subprocess 1\n"));
  CHECK(looksLikeTrainingLog("junk\n{'loss': 0.1, 'grad_norm': 0.2, 'epoch': 1}\n"));
  CHECK(looksLikeTrainingLog("node17-2:36748:36748 [0] NCCL INFO Using network IB\n"));
  CHECK(looksLikeTrainingLog("some text\ntorch.OutOfMemoryError: CUDA out of memory.\n"));
  CHECK_FALSE(looksLikeTrainingLog("Shopping list\nmilk\neggs\n"));
  CHECK_FALSE(looksLikeTrainingLog("Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'x'\n"));
  CHECK_FALSE(looksLikeTrainingLog(""));
  // Only the head is inspected.
  std::string late(70 * 1024, 'x');
  late += "\n[rank0]: hello\n";
  CHECK_FALSE(looksLikeTrainingLog(late));
}

TEST_CASE("memory stays bounded: 2M clean lines") {
  LogAnalyzer analyzer;
  std::size_t offset = 0;
  AnalyzerStateSize early;
  constexpr std::size_t kLines = 2'000'000;
  for (std::size_t i = 0; i < kLines; ++i) {
    const std::string line = cleanLine(i);
    analyzer.addLine(line, offset);
    offset += line.size() + 1;
    if (i == 100'000) early = analyzer.stateSize();
  }
  const AnalyzerStateSize late = analyzer.stateSize();
  MESSAGE("state after 100k lines: " << early.approximateBytes << " B, after 2M: " << late.approximateBytes << " B");
  CHECK(late.streams == early.streams);
  CHECK(late.accumulators == early.accumulators);
  CHECK(late.evidence == early.evidence);
  CHECK(late.approximateBytes == early.approximateBytes);
  const LogReport r = analyzer.finish();
  CHECK(r.findings.empty());
  CHECK(r.linesRead == kLines);
  CHECK(r.bytesRead == offset - 1);
}

TEST_CASE("memory stays bounded: 2M failing lines from thousands of ranks") {
  LogAnalyzer analyzer;
  std::size_t offset = 0;
  AnalyzerStateSize early;
  constexpr std::size_t kLines = 2'000'000;
  for (std::size_t i = 0; i < kLines; ++i) {
    std::string line;
    const int rank = static_cast<int>(i % 20000);
    switch (i % 5) {
      case 0: line = "{'loss': nan, 'grad_norm': nan, 'epoch': 0.1}"; break;
      case 1: line = fmt::format("[rank{}]:[E ProcessGroupNCCL.cpp:563] [Rank {}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={}, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600010 milliseconds before timing out.", rank, rank, i % 3); break;
      case 2: line = fmt::format("[rank{}]: Traceback (most recent call last):", rank); break;
      case 3: line = fmt::format("[rank{}]:   File \"/x/y{}.py\", line {}, in f{}", rank, i, i, i); break;
      default: line = fmt::format("[rank{}]: ValueError{}: bad value {}", rank, i % 500, i); break;
    }
    analyzer.addLine(line, offset);
    offset += line.size() + 1;
    if (i == 200'000) early = analyzer.stateSize();
  }
  const AnalyzerStateSize late = analyzer.stateSize();
  MESSAGE("state after 200k lines: " << early.approximateBytes << " B, after 2M: " << late.approximateBytes << " B");
  CHECK(late.streams <= 1025);
  CHECK(late.accumulators <= 96);
  CHECK(late.evidence <= 96 * 12);
  CHECK(late.approximateBytes < 4 * early.approximateBytes + (1u << 20));
  CHECK(late.approximateBytes < (64u << 20));
  const LogReport r = analyzer.finish();
  for (const auto& f : r.findings) CHECK(f.evidence.size() <= 12);
}

TEST_CASE("throughput on a generated log (20 MB; the 200 MB run is the skipped case below)") {
  std::string text;
  for (std::size_t i = 0; text.size() < (20u << 20); ++i) text += cleanLine(i) + "\n";
  const auto t0 = std::chrono::steady_clock::now();
  const LogReport r = analyzeText(text);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE(fmt::format("analyzeText: {:.1f} MB in {:.3f} s = {:.0f} MB/s", megabytes(text.size()), s, megabytes(text.size()) / s));
  CHECK(r.findings.empty());
  CHECK(r.bytesRead + 1 == text.size());
}

TEST_CASE("throughput on a generated ~200 MB log with a failure near the end" * doctest::skip()) {
  std::string text;
  text.reserve(210u << 20);
  for (std::size_t i = 0; text.size() < (200u << 20); ++i) text += cleanLine(i) + "\n";
  LogWriter w;
  w.traceback("worker-1", 5, true, backwardFrames(), "torch.OutOfMemoryError: CUDA out of memory.");
  for (int r : {0, 1, 2, 3}) w.watchdogTimeout("worker-0", r, 40000, 10, "ALLREDUCE", 1800000);
  text += w.text();
  auto t0 = std::chrono::steady_clock::now();
  const LogReport r = analyzeText(text);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE(fmt::format("analyzeText: {:.1f} MB in {:.2f} s = {:.0f} MB/s", megabytes(text.size()), s, megabytes(text.size()) / s));
  REQUIRE(r.initiatingFinding());
  CHECK(r.initiatingFinding()->initiatingRank == 5);
  std::istringstream in(std::move(text));
  t0 = std::chrono::steady_clock::now();
  const LogReport r2 = analyzeStream(in);
  s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE(fmt::format("analyzeStream: {:.2f} s = {:.0f} MB/s", s, megabytes(r2.bytesRead) / s));
  CHECK(r2.toJson() == r.toJson());
}

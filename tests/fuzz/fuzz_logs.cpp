// The training-log analyser (analysis/logs) on arbitrary text.
// Properties: splitting the text into chunks does not change the report; evidence
// points inside the text; the report renders (Markdown, SVG, JSON) without failing.
#include "tests/fuzz/fuzz_check.h"
#include "analysis/logs/analyze.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <nlohmann/json.hpp>

namespace {


// A stream buffer that hands out the text in small, uneven reads.
class PiecewiseBuf : public std::streambuf {
 public:
  PiecewiseBuf(std::string_view text, unsigned seed) : text_(text), seed_(seed | 1) {}

 protected:
  int_type underflow() override {
    if (pos_ >= text_.size()) return traits_type::eof();
    seed_ = seed_ * 1103515245u + 12345u;
    std::size_t n = std::min<std::size_t>(1 + (seed_ >> 16) % 61, text_.size() - pos_);
    char* p = const_cast<char*>(text_.data() + pos_);
    setg(p, p, p + n);
    pos_ += n;
    return traits_type::to_int_type(*p);
  }

 private:
  std::string_view text_;
  unsigned seed_;
  std::size_t pos_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto whole = dsls::logs::analyzeText(text);

  CHECK(whole.bytesRead <= text.size());
  for (const auto& f : whole.findings)
    for (const auto& e : f.evidence) CHECK(e.byteOffset + e.length <= text.size() && e.line >= 1);

  PiecewiseBuf buf(text, static_cast<unsigned>(size));
  std::istream in(&buf);
  auto streamed = dsls::logs::analyzeStream(in);
  CHECK(streamed.findings.size() == whole.findings.size());
  CHECK(streamed.linesRead == whole.linesRead);
  for (std::size_t i = 0; i < whole.findings.size(); ++i) {
    CHECK(streamed.findings[i].id == whole.findings[i].id);
    CHECK(streamed.findings[i].evidenceTotal == whole.findings[i].evidenceTotal);
  }

  // The views users see must render for any report.
  std::string md = whole.markdown();
  std::string svg = whole.timelineSvg();
  std::string json = whole.toJson().dump();
  CHECK(!json.empty());
  return 0;
}

#include "analysis/logs/lines/line_literals.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include "analysis/logs/fingerprints/fingerprints.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs {
namespace {

constexpr std::array<std::pair<LineLiteral, std::string_view>, 4> kMetricNames = {{
    {LineLiteral::Loss, "loss"},
    {LineLiteral::GradNorm, "grad_norm"},
    {LineLiteral::GradNormSpaced, "grad norm"},
    {LineLiteral::Skipped, "skipped="},
}};

LiteralPrefilter makeScan() {
  std::vector<LiteralPrefilter::Literal> literals;
  for (std::string& text : FingerprintMatcher::shared().literals())
    literals.push_back({std::move(text), static_cast<std::uint8_t>(LineLiteral::Fingerprint)});
  for (const auto& [name, text] : kMetricNames) literals.push_back({std::string(text), static_cast<std::uint8_t>(name)});
  return LiteralPrefilter(std::move(literals));
}

const LiteralPrefilter& lineScan() {
  static const LiteralPrefilter scan = makeScan();
  return scan;
}

}  // namespace

std::string_view lineLiteralText(LineLiteral name) {
  for (const auto& [n, text] : kMetricNames)
    if (n == name) return text;
  throw std::logic_error("lineLiteralText: no text for this literal");
}

LineLiteralHits scanLineLiterals(std::string_view message) { return LineLiteralHits(lineScan().scan(message)); }

bool lineLiteralsHoldNoDigit() {
  static const bool none = std::none_of(lineScan().literals().begin(), lineScan().literals().end(),
                                        [](const LiteralPrefilter::Literal& l) {
                                          return std::any_of(l.text.begin(), l.text.end(), text::isDigit);
                                        });
  return none;
}

LineLiteralHits LineLiteralMemo::scan(std::string_view message) {
  if (message.size() > kMaxBytes || !lineLiteralsHoldNoDigit()) return scanLineLiterals(message);
  Entry* oldest = &entries_[0];
  for (Entry& e : entries_) {
    if (e.lastUse != 0 && e.folded.size() == message.size() && text::startsWithFolded(message, e.folded)) {
      e.lastUse = ++clock_;
      return LineLiteralHits(e.hits, e.shape);
    }
    if (e.lastUse < oldest->lastUse) oldest = &e;
  }
  oldest->hits = lineScan().scan(message);
  text::assignFolded(oldest->folded, message);
  oldest->lastUse = ++clock_;
  oldest->shape = ++shapes_;
  return LineLiteralHits(oldest->hits, oldest->shape);
}

}  // namespace dsls::logs

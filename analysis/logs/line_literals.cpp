#include "analysis/logs/line_literals.h"

#include <array>
#include <stdexcept>
#include <utility>

#include "analysis/logs/fingerprints.h"

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

}  // namespace

std::string_view lineLiteralText(LineLiteral name) {
  for (const auto& [n, text] : kMetricNames)
    if (n == name) return text;
  throw std::logic_error("lineLiteralText: no text for this literal");
}

LineLiteralHits scanLineLiterals(std::string_view message) {
  static const LiteralPrefilter scan = makeScan();
  return LineLiteralHits(scan.scan(message));
}

}  // namespace dsls::logs

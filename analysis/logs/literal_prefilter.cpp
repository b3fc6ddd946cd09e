#include "analysis/logs/literal_prefilter.h"

#include <algorithm>
#include <cstring>

namespace dsls::logs {
namespace {

std::uint16_t pairKey(unsigned char a, unsigned char b) { return static_cast<std::uint16_t>((a << 8) | b); }

// Higher is rarer in ordinary log text: lowercase letters and spaces are common.
int byteRarity(unsigned char c) {
  if (c == ' ' || c == 'e' || c == 't' || c == 'a' || c == 'o' || c == 'i' || c == 'n' || c == 's' ||
      c == 'r' || c == 'l')
    return 0;
  if (c >= 'a' && c <= 'z') return 1;
  if (c >= '0' && c <= '9') return 1;
  return 2;
}

}  // namespace

LiteralPrefilter::LiteralPrefilter(std::vector<std::string> literals) : literals_(std::move(literals)) {
  for (std::uint32_t i = 0; i < literals_.size(); ++i) {
    const std::string& lit = literals_[i];
    if (lit.size() < 2) continue;
    std::uint32_t best = 0;
    int bestScore = -1;
    for (std::uint32_t k = 0; k + 1 < lit.size(); ++k) {
      const int score = byteRarity(static_cast<unsigned char>(lit[k])) +
                        byteRarity(static_cast<unsigned char>(lit[k + 1]));
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    }
    const auto key = pairKey(static_cast<unsigned char>(lit[best]), static_cast<unsigned char>(lit[best + 1]));
    anchors_.push_back({key, i, best});
    pairs_.set(key);
  }
  std::sort(anchors_.begin(), anchors_.end(), [](const Anchor& a, const Anchor& b) { return a.pair < b.pair; });
}

bool LiteralPrefilter::anyIn(std::string_view s) const {
  if (s.size() < 2) return false;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const std::uint16_t key = pairKey(p[i], p[i + 1]);
    if (!pairs_.test(key)) continue;
    auto it = std::lower_bound(anchors_.begin(), anchors_.end(), key,
                               [](const Anchor& a, std::uint16_t k) { return a.pair < k; });
    for (; it != anchors_.end() && it->pair == key; ++it) {
      const std::string& lit = literals_[it->literal];
      if (i < it->offset) continue;
      const std::size_t start = i - it->offset;
      if (start + lit.size() <= n && std::memcmp(s.data() + start, lit.data(), lit.size()) == 0) return true;
    }
  }
  return false;
}

}  // namespace dsls::logs

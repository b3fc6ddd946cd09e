#include "analysis/logs/lines/literal_prefilter.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace dsls::logs {
namespace {

// The two bytes as one little-endian load reads them.
std::uint16_t pairKey(unsigned char a, unsigned char b) { return static_cast<std::uint16_t>(a | (b << 8)); }

std::uint16_t pairAt(const unsigned char* p) {
  std::uint16_t key;
  std::memcpy(&key, p, 2);
  return std::endian::native == std::endian::little ? key : pairKey(p[0], p[1]);
}

}  // namespace

int byteRarity(unsigned char c) {
  if (c == ' ' || c == 'e' || c == 't' || c == 'a' || c == 'o' || c == 'i' || c == 'n' || c == 's' ||
      c == 'r' || c == 'l')
    return 0;
  if (c >= 'a' && c <= 'z') return 1;
  if (c >= '0' && c <= '9') return 1;
  // Python dict reprs ({'loss': 1.0}) and "key: value" pairs are on most lines of a log.
  if (c == '\'' || c == ':') return 1;
  return 2;
}

RareByteLiteral::RareByteLiteral(std::string_view text) : text_(text) {
  for (std::size_t k = 1; k < text.size(); ++k)
    if (byteRarity(static_cast<unsigned char>(text[k])) > byteRarity(static_cast<unsigned char>(text[anchor_])))
      anchor_ = k;
}

std::size_t RareByteLiteral::find(std::string_view s, std::size_t from) const {
  if (from > s.size()) return std::string_view::npos;
  if (text_.empty()) return from;
  if (s.size() - from < text_.size()) return std::string_view::npos;
  const char* p = s.data() + from + anchor_;
  const char* last = s.data() + (s.size() - text_.size()) + anchor_;  // the last place the anchor can be
  while (p <= last) {
    const void* hit = std::memchr(p, text_[anchor_], static_cast<std::size_t>(last - p) + 1);
    if (!hit) return std::string_view::npos;
    p = static_cast<const char*>(hit);
    const char* start = p - anchor_;
    // The first and last bytes first: most hits of the anchor are no start of the literal.
    if (start[0] == text_.front() && start[text_.size() - 1] == text_.back() &&
        std::memcmp(start, text_.data(), text_.size()) == 0)
      return static_cast<std::size_t>(start - s.data());
    ++p;
  }
  return std::string_view::npos;
}

namespace {

std::vector<LiteralPrefilter::Literal> inGroupZero(std::vector<std::string> texts) {
  std::vector<LiteralPrefilter::Literal> out;
  for (std::string& t : texts) out.push_back({std::move(t), 0});
  return out;
}

}  // namespace

LiteralPrefilter::LiteralPrefilter(std::vector<std::string> literals) : LiteralPrefilter(inGroupZero(std::move(literals))) {}

LiteralPrefilter::LiteralPrefilter(std::vector<Literal> literals) : literals_(std::move(literals)) {
  for (std::uint32_t i = 0; i < literals_.size(); ++i) {
    const std::string& lit = literals_[i].text;
    if (lit.size() < kMinLiteral) throw std::logic_error("prefilter literal shorter than 4 bytes: " + lit);
    if (literals_[i].group >= kMaxGroups) throw std::logic_error("prefilter literal group out of range: " + lit);
    // The kStride consecutive byte pairs whose commonest pair is rarest: one of them lies at a
    // position that the scan tests, wherever the literal occurs.
    std::uint32_t best = 0;
    int bestScore = -1;
    for (std::uint32_t k = 0; k + kStride < lit.size(); ++k) {
      int score = 4;
      for (std::uint32_t j = k; j < k + kStride; ++j)
        score = std::min(score, byteRarity(static_cast<unsigned char>(lit[j])) +
                                    byteRarity(static_cast<unsigned char>(lit[j + 1])));
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    }
    for (std::uint32_t j = best; j < best + kStride; ++j) {
      const auto key = pairKey(static_cast<unsigned char>(lit[j]), static_cast<unsigned char>(lit[j + 1]));
      anchors_.push_back({key, literals_[i].group, j, static_cast<std::uint32_t>(lit.size()), lit.data()});
      pairs_[key] = 1;
    }
  }
  std::sort(anchors_.begin(), anchors_.end(), [](const Anchor& a, const Anchor& b) { return a.pair < b.pair; });
  for (std::size_t k = anchors_.size(); k-- > 0;) firstAnchor_[anchors_[k].pair] = static_cast<std::uint32_t>(k);
}

template <typename Found>
void LiteralPrefilter::forEachHit(std::string_view s, Found&& found) const {
  if (s.size() < 2) return;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  // Every kStride-th byte pair: a literal of kMinLiteral bytes or more covers kStride
  // consecutive pairs, exactly one of which is tested.
  for (std::size_t i = 0; i + 1 < n; i += kStride) {
    const std::uint16_t key = pairAt(p + i);
    if (!hasPair(key)) continue;
    for (auto it = anchors_.begin() + static_cast<std::ptrdiff_t>(firstAnchor_[key]); it != anchors_.end() && it->pair == key;
         ++it) {
      if (i < it->offset) continue;
      const std::size_t start = i - it->offset;
      const std::size_t size = it->size;
      if (start + size > n || s[start] != it->text[0] || s[start + size - 1] != it->text[size - 1]) continue;
      if (std::memcmp(s.data() + start, it->text, size) == 0 && found(it->group, start)) return;
    }
  }
}

bool LiteralPrefilter::anyIn(std::string_view s) const {
  bool any = false;
  forEachHit(s, [&](std::uint8_t, std::size_t) { return any = true; });
  return any;
}

LiteralPrefilter::Hits LiteralPrefilter::scan(std::string_view s) const {
  Hits hits;
  // An occurrence is met at its anchor, which lies further into some literals than into
  // others: a later occurrence may be met first, hence the minimum over the whole text.
  forEachHit(s, [&](std::uint8_t group, std::size_t start) {
    hits.first[group] = std::min(hits.first[group], start);
    return false;
  });
  return hits;
}

}  // namespace dsls::logs

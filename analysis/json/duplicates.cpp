#include "analysis/json/duplicates.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace dsls::json {

// Small objects compare pairwise, large ones sort their keys once: no lookup structure
// outlives the call.
std::vector<std::pair<std::size_t, std::size_t>> duplicatePairs(const Member* members, std::size_t count,
                                                                std::size_t earlier) {
  std::vector<std::pair<std::size_t, std::size_t>> found;
  if (count < 2) return found;
  auto keyAt = [&](std::size_t i) { return members[i].key; };
  constexpr std::size_t kPairwiseLimit = 16;
  if (count <= kPairwiseLimit) {
    for (std::size_t j = std::max<std::size_t>(earlier, 1); j < count; ++j)
      for (std::size_t i = 0; i < j; ++i)
        if (keyAt(i) == keyAt(j)) {
          found.emplace_back(i, j);
          break;
        }
    return found;
  }
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto ka = keyAt(a), kb = keyAt(b);
    return ka < kb || (ka == kb && a < b);
  });
  for (std::size_t g = 0; g < count;) {
    std::size_t e = g + 1;
    while (e < count && keyAt(order[e]) == keyAt(order[g])) ++e;
    for (std::size_t k = g + 1; k < e; ++k)
      if (order[k] >= earlier) found.emplace_back(order[g], order[k]);
    g = e;
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return found;
}

}  // namespace dsls::json

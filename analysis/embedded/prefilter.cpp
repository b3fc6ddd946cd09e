#include "analysis/embedded/embedded_config.h"

#include <algorithm>
#include <array>

namespace dsls::embedded {

bool mentionsDeepSpeedKey(std::string_view text) {
  static constexpr std::array<std::string_view, 6> kKeys = {
      "zero_optimization", "train_micro_batch_size_per_gpu", "train_batch_size", "zero_allow_untested_optimizer",
      "steps_per_print", "gradient_clipping"};
  return std::any_of(kKeys.begin(), kKeys.end(), [&](std::string_view k) { return text.find(k) != std::string_view::npos; });
}

}  // namespace dsls::embedded

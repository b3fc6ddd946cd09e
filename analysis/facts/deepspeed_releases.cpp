#include "analysis/facts/deepspeed_releases.h"

namespace dsls::facts {

const std::vector<std::string_view>& deepspeedReleases() {
  static const std::vector<std::string_view> releases = {
#include "deepspeed_releases.inc"
  };
  return releases;
}

}  // namespace dsls::facts

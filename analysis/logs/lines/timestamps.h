// Converts the timestamps found in log prefixes to seconds within the year, so
// events from the DeepSpeed logger and from glog lines can be compared. Years are
// ignored (glog prints none); comparisons across New Year are wrong by design.
#pragma once

#include <optional>
#include <string_view>

namespace dsls::logs {

// "2024-02-03 11:48:17,107", "0321 02:07:08.414640780", "321 02:07:08.41".
std::optional<double> secondsInYear(std::string_view timestamp);

}  // namespace dsls::logs

// The training metrics of a message (loss, grad norm) as scanMetrics reads them, for tests
// that compare values read through remembered layouts with values read afresh.
#pragma once

#include <string>
#include <string_view>

#include "analysis/logs/lines/line_literals.h"

namespace dsls::logs {

struct NumericsState;

namespace detail {

// "loss=<kind>,<zero>,<token>;norm=..." ("-" for an absent value), read through the layouts
// `n` remembers for the message's shape (literals.shape(); 0: read afresh, nothing kept).
std::string describeMetricValues(NumericsState& n, std::string_view msg, const LineLiteralHits& literals);

}  // namespace detail
}  // namespace dsls::logs

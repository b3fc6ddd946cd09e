// The bytes of a config that no JSON loader reads: text that is not UTF-8, and a UTF-8 byte
// order mark, which Python's json refuses.
#pragma once

#include "analysis/core/finding.h"

#include <optional>
#include <string_view>

namespace dsls::config {

// One json-syntax finding for a text that is not UTF-8 (at its first bad bytes, counting the
// others), or nothing. A file that is not text gets this one finding instead of one per byte run.
std::optional<analysis::Finding> notUtf8Finding(std::string_view text);

// A json-syntax finding for a leading byte order mark, with its removal as a safe fix.
std::optional<analysis::Finding> byteOrderMarkFinding(std::string_view text);

}  // namespace dsls::config

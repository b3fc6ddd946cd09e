// Minimal text edits on a JSON document: replace one value, or add one member to an
// object in the style of its siblings (indentation, one-line objects, trailing commas,
// comments). Everything outside the edit stays byte-identical.
#pragma once

#include "analysis/core/finding.h"
#include "analysis/json/document.h"

#include <string>
#include <string_view>
#include <vector>

namespace dsls::config {

// Replaces the member's value with `newValueText` (JSON text).
analysis::TextEdit replaceValue(const json::Member& member, std::string newValueText);

// Adds `"key": valueText` as the last member of `object`.
std::vector<analysis::TextEdit> insertMember(std::string_view text, const json::Node& object, std::string_view key,
                                             std::string_view valueText);

// Renames a key, keeping its value and everything around it.
analysis::TextEdit renameKey(const json::Member& member, std::string_view newKey);

}  // namespace dsls::config

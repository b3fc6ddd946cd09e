// Small readers of tree-sitter nodes against their source text.
#pragma once

#include "analysis/core/finding.h"

#include <tree_sitter/api.h>

#include <string_view>

namespace dsls::embedded {

inline std::string_view nodeText(std::string_view source, TSNode n) {
  if (ts_node_is_null(n)) return {};  // an absent field
  const std::size_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return b <= e && e <= source.size() ? source.substr(b, e - b) : std::string_view{};
}
inline analysis::TextRange nodeRange(TSNode n) { return {ts_node_start_byte(n), ts_node_end_byte(n)}; }
inline bool isType(TSNode n, std::string_view type) { return !ts_node_is_null(n) && type == ts_node_type(n); }
inline TSNode field(TSNode n, std::string_view name) {
  return ts_node_child_by_field_name(n, name.data(), static_cast<std::uint32_t>(name.size()));
}

}  // namespace dsls::embedded

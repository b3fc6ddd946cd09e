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
inline analysis::TextRange nodeRange(TSNode n) {
  if (ts_node_is_null(n)) return {};
  return {ts_node_start_byte(n), ts_node_end_byte(n)};
}
inline bool isType(TSNode n, std::string_view type) { return !ts_node_is_null(n) && type == ts_node_type(n); }
inline TSNode field(TSNode n, std::string_view name) {
  if (ts_node_is_null(n)) return n;  // tree-sitter reads a null node's tree
  return ts_node_child_by_field_name(n, name.data(), static_cast<std::uint32_t>(name.size()));
}

// Calls `visit` for `root` and every named node under it, in source order; a node for which it
// returns false is not entered. A tree cursor, not ts_node_named_child(i) per child, which
// starts over from the first child each time (quadratic on a long module).
template <class Visit>
void forEachNamedNode(TSNode root, Visit visit) {
  if (ts_node_is_null(root)) return;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    const bool enter = !ts_node_is_named(n) || visit(n);
    if (enter && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor)))
      if (!ts_tree_cursor_goto_parent(&cursor)) break;
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
}

}  // namespace dsls::embedded

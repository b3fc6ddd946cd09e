#include "analysis/yaml/mapping.h"

#include "analysis/embedded/node_text.h"

#include <algorithm>

namespace dsls::yaml {
namespace {

using embedded::field;
using embedded::isType;
using embedded::nodeText;

// The block_mapping under a document or block_node, or the node itself.
TSNode blockMapping(TSNode n) {
  for (int depth = 0; depth < 3 && !ts_node_is_null(n); ++depth) {
    if (isType(n, "block_mapping")) return n;
    TSNode next{};
    for (std::uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (isType(c, "block_node") || isType(c, "block_mapping")) next = c;
    }
    n = next;
  }
  return TSNode{};
}

// A flow_node holding one scalar: its text without quotes.
std::optional<std::string> scalarOf(std::string_view source, TSNode value, bool& quoted) {
  if (!isType(value, "flow_node") || ts_node_named_child_count(value) != 1) return std::nullopt;
  TSNode s = ts_node_named_child(value, 0);
  const std::string_view text = nodeText(source, s);
  quoted = isType(s, "single_quote_scalar") || isType(s, "double_quote_scalar");
  if (quoted && text.size() >= 2) return std::string(text.substr(1, text.size() - 2));
  if (isType(s, "plain_scalar")) return std::string(text);
  return std::nullopt;
}

}  // namespace

std::vector<Entry> mappingEntries(std::string_view source, TSNode node) {
  std::vector<Entry> out;
  TSNode mapping = blockMapping(node);
  if (ts_node_is_null(mapping)) return out;
  for (std::uint32_t i = 0; i < ts_node_named_child_count(mapping); ++i) {
    TSNode pair = ts_node_named_child(mapping, i);
    if (!isType(pair, "block_mapping_pair")) continue;
    Entry e;
    e.keyNode = field(pair, "key");
    e.value = field(pair, "value");
    e.key = std::string(nodeText(source, e.keyNode));
    if (!ts_node_is_null(e.value)) e.scalar = scalarOf(source, e.value, e.quoted);
    out.push_back(std::move(e));
  }
  return out;
}

const Entry* find(const std::vector<Entry>& entries, std::string_view key) {
  auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.key == key; });
  return it == entries.end() ? nullptr : &*it;
}

}  // namespace dsls::yaml

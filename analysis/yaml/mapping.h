// A YAML block mapping read as keys and scalar values, with their nodes: what an Accelerate
// config needs from tree-sitter-yaml's tree.
#pragma once

#include <tree_sitter/api.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::yaml {

struct Entry {
  std::string key;
  TSNode keyNode;
  TSNode value;                // the value's node (a flow_node or a block_node)
  std::optional<std::string> scalar;  // the value as text, quotes removed, when it is a scalar
  bool quoted = false;                // a quoted scalar: a string whatever it reads like
};

// The entries of the block mapping `node` holds (a document, block_node or block_mapping);
// empty when it holds none.
std::vector<Entry> mappingEntries(std::string_view source, TSNode node);

const Entry* find(const std::vector<Entry>& entries, std::string_view key);

}  // namespace dsls::yaml

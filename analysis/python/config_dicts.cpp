#include "analysis/python/config_dicts.h"

#include "analysis/embedded/node_text.h"
#include "analysis/embedded/syntax_tree.h"
#include "analysis/python/projection.h"

#include <algorithm>
#include <array>

extern "C" const TSLanguage* tree_sitter_python();

namespace dsls::python {
namespace {

using namespace embedded;

// The calls that take a ds_config, and the keyword that carries it (the first positional
// argument carries it too).
struct ConfigCall {
  std::string_view function;  // the last name of the callee: deepspeed.initialize -> initialize
  std::string_view keyword;
};
constexpr std::array kConfigCalls = {
    ConfigCall{"initialize", "config"},          ConfigCall{"initialize", "config_params"},
    ConfigCall{"TrainingArguments", "deepspeed"}, ConfigCall{"Seq2SeqTrainingArguments", "deepspeed"},
    ConfigCall{"HfDeepSpeedConfig", "config_file_or_dict"}, ConfigCall{"DeepSpeedPlugin", "hf_ds_config"},
};

std::string_view lastName(std::string_view callee) {
  if (auto dot = callee.rfind('.'); dot != std::string_view::npos) callee.remove_prefix(dot + 1);
  return callee;
}

// `call`'s callee takes a config as `keyword` (empty: as its first positional argument).
bool takesConfig(std::string_view source, TSNode call, std::string_view keyword) {
  const std::string_view callee = lastName(nodeText(source, field(call, "function")));
  return std::any_of(kConfigCalls.begin(), kConfigCalls.end(), [&](const ConfigCall& c) {
    return c.function == callee && (keyword.empty() ? c.function == "HfDeepSpeedConfig" : c.keyword == keyword);
  });
}

// Where a dict may hold a config: assigned to a name, returned, or passed to a call that takes one.
bool inConfigPlace(std::string_view source, TSNode dict) {
  TSNode parent = ts_node_parent(dict);
  if (isType(parent, "assignment")) return ts_node_eq(field(parent, "right"), dict);
  if (isType(parent, "return_statement")) return true;
  if (isType(parent, "keyword_argument")) {
    TSNode call = ts_node_parent(ts_node_parent(parent));
    return isType(call, "call") && takesConfig(source, call, nodeText(source, field(parent, "name")));
  }
  if (isType(parent, "argument_list") && ts_node_eq(ts_node_named_child(parent, 0), dict)) {
    TSNode call = ts_node_parent(parent);
    return isType(call, "call") && takesConfig(source, call, "");
  }
  return false;
}

std::vector<TSNode> candidates(std::string_view source, TSNode root) {
  std::vector<TSNode> found;
  forEachNamedNode(root, [&](TSNode n) {
    if ((isType(n, "dictionary") || isDictCall(source, n)) && inConfigPlace(source, n)) found.push_back(n);
    return true;
  });
  return found;
}

bool within(analysis::TextRange inner, analysis::TextRange outer) {
  return outer.begin <= inner.begin && inner.end <= outer.end;
}

}  // namespace

std::vector<ProjectedDict> findConfigDicts(std::string_view source, const IsConfig& isConfig) {
  SyntaxTree tree(tree_sitter_python(), source);
  if (!tree.parsed()) return {};
  std::vector<Projection> kept;
  for (TSNode dict : candidates(source, tree.root())) {
    const analysis::TextRange range = nodeRange(dict);
    if (!kept.empty() && within(range, kept.back().dict.source)) continue;
    Projection projection = projectDict(source, dict);
    if (isConfig(projection.dict.json)) kept.push_back(std::move(projection));
  }
  // A dict written into a kept config in place of its name is analysed there, not twice.
  std::vector<ProjectedDict> out;
  for (auto& p : kept) {
    const bool inlinedElsewhere = std::any_of(kept.begin(), kept.end(), [&](const Projection& other) {
      return &other != &p && std::find(other.inlined.begin(), other.inlined.end(), p.dict.source) != other.inlined.end();
    });
    if (!inlinedElsewhere) out.push_back(std::move(p.dict));
  }
  return out;
}

unsigned grammarAbiVersion() { return ts_language_version(tree_sitter_python()); }

}  // namespace dsls::python

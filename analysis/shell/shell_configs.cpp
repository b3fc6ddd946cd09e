#include "analysis/shell/shell_configs.h"

#include "analysis/embedded/node_text.h"
#include "analysis/embedded/syntax_tree.h"
#include "analysis/shell/projection.h"
#include "analysis/shell/variables.h"

#include <algorithm>
#include <cctype>

extern "C" const TSLanguage* tree_sitter_bash();

namespace dsls::shell {
namespace {

using namespace embedded;

TSNode namedChildOfType(TSNode n, std::string_view type) {
  for (std::uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
    if (isType(ts_node_named_child(n, i), type)) return ts_node_named_child(n, i);
  return TSNode{};
}

bool startsWithBrace(std::string_view quoted) {
  const std::size_t at = quoted.find_first_not_of(" \t\r\n\"'");
  return at != std::string_view::npos && quoted[at] == '{';
}

bool namesJsonFile(std::string_view destination) {
  std::string lower(destination);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find("json") != std::string::npos;
}

// echo '{...}' > ds_config.json, printf "{...}" >> $CONFIG_JSON: the argument that holds the JSON.
TSNode echoedJson(std::string_view source, TSNode statement) {
  TSNode command = field(statement, "body");
  const std::string_view name = nodeText(source, field(command, "name"));
  if (!isType(command, "command") || (name != "echo" && name != "printf")) return TSNode{};
  bool toJsonFile = false;
  for (std::uint32_t i = 0; i < ts_node_named_child_count(statement); ++i) {
    TSNode r = ts_node_named_child(statement, i);
    if (isType(r, "file_redirect") && namesJsonFile(nodeText(source, field(r, "destination")))) toJsonFile = true;
  }
  if (!toJsonFile) return TSNode{};
  for (std::uint32_t i = 0; i < ts_node_named_child_count(command); ++i) {
    TSNode arg = ts_node_named_child(command, i);
    if ((isType(arg, "raw_string") || isType(arg, "string")) && startsWithBrace(nodeText(source, arg))) return arg;
  }
  return TSNode{};
}

// Heredoc bodies and echoed JSON, in source order.
std::vector<TSNode> candidates(std::string_view source, TSNode root) {
  std::vector<TSNode> found;
  forEachNamedNode(root, [&](TSNode n) {
    if (isType(n, "heredoc_redirect")) {
      if (TSNode body = namedChildOfType(n, "heredoc_body"); !ts_node_is_null(body)) found.push_back(body);
    } else if (isType(n, "redirected_statement")) {
      if (TSNode arg = echoedJson(source, n); !ts_node_is_null(arg)) found.push_back(arg);
    }
    return true;
  });
  return found;
}

}  // namespace

std::vector<EmbeddedConfig> findShellConfigs(std::string_view source, const IsConfig& isConfig) {
  SyntaxTree tree(tree_sitter_bash(), source);
  if (!tree.parsed()) return {};
  const ScriptValues values(source, tree.root());
  std::vector<EmbeddedConfig> out;
  for (TSNode body : candidates(source, tree.root())) {
    EmbeddedConfig config = projectJson(source, body, values);
    if (isConfig(config.json)) out.push_back(std::move(config));
  }
  return out;
}

unsigned grammarAbiVersion() { return ts_language_version(tree_sitter_bash()); }

}  // namespace dsls::shell

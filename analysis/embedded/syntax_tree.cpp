#include "analysis/embedded/syntax_tree.h"

#include <cstdint>

namespace dsls::embedded {
namespace {
// A parse is bounded in time as well as by the caller's size limit: bad input never hangs.
constexpr std::uint64_t kParseTimeoutMicros = 2'000'000;
}  // namespace

SyntaxTree::SyntaxTree(const TSLanguage* language, std::string_view source) : parser_(ts_parser_new()), tree_(nullptr) {
  if (!ts_parser_set_language(parser_, language)) return;
  ts_parser_set_timeout_micros(parser_, kParseTimeoutMicros);
  tree_ = ts_parser_parse_string(parser_, nullptr, source.data(), static_cast<std::uint32_t>(source.size()));
}

SyntaxTree::~SyntaxTree() {
  if (tree_) ts_tree_delete(tree_);
  ts_parser_delete(parser_);
}

TSNode SyntaxTree::root() const { return ts_tree_root_node(tree_); }

}  // namespace dsls::embedded

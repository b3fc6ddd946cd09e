// A tree-sitter parse of a host text (Python, shell), owned; nodes are read with tree-sitter's C API.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

namespace dsls::embedded {

class SyntaxTree {
 public:
  SyntaxTree(const TSLanguage* language, std::string_view source);
  ~SyntaxTree();
  SyntaxTree(const SyntaxTree&) = delete;
  SyntaxTree& operator=(const SyntaxTree&) = delete;
  TSNode root() const;
  bool parsed() const { return tree_ != nullptr; }

 private:
  TSParser* parser_;
  TSTree* tree_;
};

}  // namespace dsls::embedded

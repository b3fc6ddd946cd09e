// A tree-sitter parse of a Python text, owned; nodes are read with tree-sitter's C API.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

namespace dsls::python {

class SyntaxTree {
 public:
  explicit SyntaxTree(std::string_view source);
  ~SyntaxTree();
  SyntaxTree(const SyntaxTree&) = delete;
  SyntaxTree& operator=(const SyntaxTree&) = delete;
  TSNode root() const;
  bool parsed() const { return tree_ != nullptr; }

 private:
  TSParser* parser_;
  TSTree* tree_;
};

// The ABI version of the vendored grammar (14 for tree-sitter-python 0.23).
unsigned grammarAbiVersion();

}  // namespace dsls::python

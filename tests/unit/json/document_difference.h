// The first difference between two parsed documents, field by field: what a reused document
// (json/reparse.h) is held to against a full parse, in the unit tests and the fuzz target.
#pragma once

#include <sstream>
#include <string>

#include "analysis/json/document.h"

namespace dsls::json::test {

inline std::string show(dsls::analysis::TextRange r) {
  // Streamed: `"[" + std::to_string(...)` trips GCC 12's -Wrestrict false positive (PR 105329).
  std::ostringstream out;
  out << '[' << r.begin << ',' << r.end << ')';
  return out.str();
}

// The first difference between two documents, or "" when they are the same.
class Difference {
 public:
  std::string between(const Document& a, const Document& b) {
    if (a.root.has_value() != b.root.has_value()) return "root present in one only";
    if (a.root) node(*a.root, *b.root, "$");
    if (!found_.empty()) return found_;
    if (a.errors.size() != b.errors.size()) return "error count " + std::to_string(a.errors.size()) + " vs " +
                                                    std::to_string(b.errors.size());
    for (std::size_t i = 0; i < a.errors.size(); ++i) {
      const SyntaxError &x = a.errors[i], &y = b.errors[i];
      if (x.range != y.range || x.message != y.message || x.hjsonAccepts != y.hjsonAccepts)
        return "error " + std::to_string(i) + ": " + show(x.range) + " " + x.message + " vs " + show(y.range) + " " +
               y.message;
    }
    if (a.comments != b.comments) return "comments differ";
    if (a.trailingCommas != b.trailingCommas) return "trailing commas differ";
    if (a.duplicates.size() != b.duplicates.size()) return "duplicate count differs";
    for (std::size_t i = 0; i < a.duplicates.size(); ++i) {
      const DuplicateKey &x = a.duplicates[i], &y = b.duplicates[i];
      if (x.path != y.path || x.first != y.first || x.duplicate != y.duplicate) return "duplicate " + x.path;
    }
    return "";
  }

 private:
  void differs(const std::string& path, const std::string& what) {
    if (found_.empty()) found_ = path + ": " + what;
  }

  void node(const Node& a, const Node& b, const std::string& path) {
    if (!found_.empty()) return;
    if (a.kind != b.kind) return differs(path, "kind");
    if (a.range != b.range) return differs(path, "range " + show(a.range) + " vs " + show(b.range));
    if (a.closed != b.closed || a.boolean != b.boolean || a.isInteger != b.isInteger) return differs(path, "flags");
    if (a.kind == Kind::Number && a.number != b.number) return differs(path, "number");
    if (a.string != b.string) return differs(path, "string '" + std::string(a.string) + "'");
    if (a.members().size() != b.members().size()) return differs(path, "member count");
    for (std::size_t i = 0; i < a.members().size(); ++i) {
      const Member &x = a.members()[i], &y = b.members()[i];
      if (x.key != y.key || x.keyRange != y.keyRange) return differs(path, "key " + std::string(x.key));
      node(x.value, y.value, path + "." + std::string(x.key));
    }
    if (a.elements().size() != b.elements().size()) return differs(path, "element count");
    for (std::size_t i = 0; i < a.elements().size(); ++i)
      node(a.elements()[i], b.elements()[i], path + "[" + std::to_string(i) + "]");
  }

  std::string found_;
};

}  // namespace dsls::json::test

// What sits at a byte offset of a parsed document, for hover, completion and
// go-to-definition. Ranges count as containing their end offset, so a cursor
// right after a token still refers to it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/json/document.h"

namespace dsls::json {

struct Location {
  // Key path from the root to `node`; when on a key or between a key and its
  // value, the path ends with that key. Array elements appear as "[0]".
  std::vector<std::string> path;
  // The innermost value containing the offset. On a key, the object holding it.
  const Node* node = nullptr;
  // The member whose key or value is `node` (or whose key the offset is on, or
  // between whose key and value it is); nullptr inside an array element or an
  // object's blank space.
  const Member* member = nullptr;
  bool onKey = false;
  // The innermost object whose braces enclose the offset, even with no member
  // there (completion in `{ | }`), and its path.
  const Node* enclosingObject = nullptr;
  std::vector<std::string> enclosingObjectPath;
};

// Pointers in the result point into `document`.
Location locate(const Document& document, std::size_t offset);

}  // namespace dsls::json

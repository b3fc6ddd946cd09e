// Reads the top-level keys of a JSON object without building a tree: a streaming scan over a
// bounded prefix that skips nested values by bracket depth and stops when told to.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace dsls::analysis {

struct TopLevelScan {
  bool object = false;    // the text (after a BOM, whitespace and comments) starts with '{' or a key
  bool missingBrace = false;  // it starts with a key: the opening '{' is missing
  bool complete = false;  // the closing '}' of the object was reached within the budget
  std::size_t keys = 0;   // keys handed to the callback
};

// Calls `onKey` with each top-level key name (its raw text between the quotes) until the
// object ends, `budget` bytes have been read, the text stops making sense, or `onKey`
// returns false. Comments and trailing commas are accepted, as DeepSpeed's loader accepts them.
TopLevelScan scanTopLevelKeys(std::string_view text, std::size_t budget,
                              const std::function<bool(std::string_view key)>& onKey);

}  // namespace dsls::analysis

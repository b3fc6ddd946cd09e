// Bounds on what one document may cost and on the size of answers about it. Each bound is
// declared once here; README.md ("Large files") and ARCHITECTURE.md describe them.
#pragma once

#include <cstddef>

namespace dsls::analysis {

// A ds_config larger than this gets only the checks that stay linear in its size: the JSON
// syntax (errors, duplicate keys), without the config rules and the editor features that read
// the config (outline, inlay hints, links, completion, hover). `dsls check` skips such files.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{16} << 20;

// The outline lists at most this many symbols, nested at most this deep: enough for any
// config, and a reply of a few MB at worst for a file of millions of keys.
inline constexpr std::size_t kMaxOutlineSymbols = 5000;
inline constexpr int kMaxOutlineDepth = 12;

// At most this many inlay hints, document links and completion items per request.
inline constexpr std::size_t kMaxInlayHints = 500;
inline constexpr std::size_t kMaxLinks = 1000;
inline constexpr std::size_t kMaxCompletionItems = 500;

// Walks behind inlay hints and links visit at most this many object members, so one
// request costs a bounded time however large the document.
inline constexpr std::size_t kMaxWalkedMembers = 20000;

}  // namespace dsls::analysis

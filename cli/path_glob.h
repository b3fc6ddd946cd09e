// Glob patterns for --include / --exclude: "*" and "?" stay inside one path segment, "**"
// spans segments, "[...]" is a character class. A pattern without "/" matches any single
// segment (a file or folder name); one with "/" matches the whole relative path.
#pragma once

#include <string_view>
#include <vector>
#include <string>

namespace dsls::cli {

bool globMatch(std::string_view pattern, std::string_view path);

// `relativePath` uses "/" separators and no leading "./".
bool pathMatchesAny(const std::vector<std::string>& patterns, std::string_view relativePath);

}  // namespace dsls::cli

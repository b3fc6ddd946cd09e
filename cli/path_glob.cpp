#include "cli/path_glob.h"

namespace dsls::cli {
namespace {

// Matches a "[...]" class at pattern[p] against c; returns the index after "]" or npos when malformed.
std::size_t matchClass(std::string_view pattern, std::size_t p, char c, bool& matched) {
  std::size_t i = p + 1;
  bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) ++i;
  bool any = false;
  bool first = true;
  for (; i < pattern.size() && (pattern[i] != ']' || first); ++i) {
    first = false;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      if (pattern[i] <= c && c <= pattern[i + 2]) any = true;
      i += 2;
    } else if (pattern[i] == c) {
      any = true;
    }
  }
  if (i >= pattern.size()) return std::string_view::npos;
  matched = any != negate;
  return i + 1;
}

bool match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0;
  // Backtracking points for the latest "*" (within a segment) and "**" (across segments).
  std::size_t starP = std::string_view::npos, starT = 0;
  std::size_t globP = std::string_view::npos, globT = 0;
  bool globAtSegment = false;  // "**/": the rest must start a segment
  while (t < text.size()) {
    if (p < pattern.size()) {
      char pc = pattern[p];
      if (pc == '*') {
        if (p + 1 < pattern.size() && pattern[p + 1] == '*') {
          p += 2;
          // "**/" also matches no folder at all.
          globAtSegment = p < pattern.size() && pattern[p] == '/';
          if (globAtSegment) ++p;
          globP = p;
          globT = t;
          starP = std::string_view::npos;
          continue;
        }
        ++p;
        starP = p;
        starT = t;
        continue;
      }
      if (pc == '?' && text[t] != '/') {
        ++p;
        ++t;
        continue;
      }
      if (pc == '[') {
        bool matched = false;
        std::size_t next = matchClass(pattern, p, text[t], matched);
        if (next != std::string_view::npos) {
          if (matched && text[t] != '/') {
            p = next;
            ++t;
            continue;
          }
        } else if (text[t] == '[') {
          ++p;
          ++t;
          continue;
        }
      } else if (pc != '?' && pc == text[t]) {
        ++p;
        ++t;
        continue;
      }
    }
    if (starP != std::string_view::npos && text[starT] != '/') {
      p = starP;
      t = ++starT;
      continue;
    }
    if (globP != std::string_view::npos && globT < text.size()) {
      do ++globT;
      while (globAtSegment && globT < text.size() && text[globT - 1] != '/');
      p = globP;
      t = globT;
      starP = std::string_view::npos;
      continue;
    }
    return false;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace

bool globMatch(std::string_view pattern, std::string_view path) {
  if (pattern.find('/') == std::string_view::npos) {
    // Any segment may match ("node_modules", "*.log").
    std::size_t start = 0;
    while (true) {
      std::size_t slash = path.find('/', start);
      if (match(pattern, path.substr(start, slash == std::string_view::npos ? slash : slash - start))) return true;
      if (slash == std::string_view::npos) return false;
      start = slash + 1;
    }
  }
  if (pattern.starts_with("./")) pattern.remove_prefix(2);
  if (pattern.starts_with("/")) pattern.remove_prefix(1);
  if (match(pattern, path)) return true;
  // "dir/sub" also matches everything below it.
  return path.size() > pattern.size() && match(std::string(pattern) + "/**", path);
}

bool pathMatchesAny(const std::vector<std::string>& patterns, std::string_view relativePath) {
  for (const auto& p : patterns)
    if (globMatch(p, relativePath)) return true;
  return false;
}

}  // namespace dsls::cli

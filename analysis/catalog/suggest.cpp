// Did-you-mean for unknown keys: compares against the known names (and their
// aliases) of one section, ignoring case and separators, and accepting small
// edit distances, reordered words and truncated names.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

#include "analysis/catalog/catalog.h"

namespace dsls::catalog {

namespace {

bool isSeparator(char c) { return c == '_' || c == '-' || c == ' ' || c == '.'; }

std::string normalized(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (!isSeparator(c)) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

// Words of a key: split at separators and at lower-to-upper camelCase steps.
std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool camelStep = i > 0 && std::isupper(static_cast<unsigned char>(c)) && std::islower(static_cast<unsigned char>(s[i - 1]));
    if (isSeparator(c) || camelStep) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
      if (isSeparator(c)) continue;
    }
    cur.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  std::sort(out.begin(), out.end());
  return out;
}

// Optimal string alignment distance (Levenshtein plus adjacent transposition).
std::size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::size_t allowedDistance(std::size_t length) {
  if (length <= 4) return 1;
  if (length <= 8) return 2;
  return std::max<std::size_t>(3, length / 4);
}

// Lower is better; nullopt when the candidate is not a plausible intent.
std::optional<std::size_t> score(std::string_view unknown, std::string_view candidate) {
  std::string u = normalized(unknown), c = normalized(candidate);
  if (u.empty() || c.empty()) return std::nullopt;
  if (u == c) return 0;                                  // case or separator difference only
  auto uw = words(unknown), cw = words(candidate);
  if (uw == cw) return 1;                                // same words, other order
  std::size_t best = SIZE_MAX;
  // A word left out or added ("start_step" for "start_profile_step").
  const auto& fewer = uw.size() < cw.size() ? uw : cw;
  const auto& more = uw.size() < cw.size() ? cw : uw;
  if (fewer.size() >= 2 && std::includes(more.begin(), more.end(), fewer.begin(), fewer.end())) {
    best = 3 + 2 * (more.size() - fewer.size());  // ranks below a one-letter typo
  }
  // The distance is at least the length difference, so skip hopeless pairs.
  std::size_t limit = allowedDistance(std::max(u.size(), c.size()));
  std::size_t gap = u.size() > c.size() ? u.size() - c.size() : c.size() - u.size();
  if (gap <= limit) {
    std::size_t d = editDistance(u, c);
    if (d <= limit) best = std::min(best, 2 + d);
  }
  const std::string& shorter = u.size() < c.size() ? u : c;
  const std::string& longer = u.size() < c.size() ? c : u;
  if (shorter.size() >= 5 && longer.find(shorter) != std::string::npos) {
    best = std::min(best, 2 + (longer.size() - shorter.size() + 1) / 2);
  }
  if (best == SIZE_MAX) return std::nullopt;
  return best;
}

}  // namespace

std::vector<std::string_view> suggest(std::string_view sectionPath, std::string_view unknownKey) {
  // No DeepSpeed key comes close to this length; a longer name is not a typo of one.
  if (unknownKey.size() > 128) return {};
  struct Hit {
    std::size_t score;
    std::size_t order;
    std::string_view name;
  };
  std::vector<Hit> hits;
  std::size_t order = 0;
  for (const KeyInfo* key : childrenOf(sectionPath)) {
    std::optional<Hit> best;
    auto consider = [&](std::string_view name) {
      if (auto s = score(unknownKey, name); s && (!best || *s < best->score)) best = Hit{*s, order, name};
    };
    consider(leafName(key->path));
    for (std::string_view alias : key->aliases) consider(alias);
    if (best) hits.push_back(*best);
    ++order;
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
    return a.score != b.score ? a.score < b.score : a.order < b.order;
  });
  std::vector<std::string_view> out;
  for (const Hit& h : hits) {
    if (out.size() == 5) break;
    out.push_back(h.name);
  }
  return out;
}

}  // namespace dsls::catalog

#include "cli/unified_diff.h"

#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
    out.push_back(text.substr(start, end - start));
    start = end;
  }
  return out;
}

// Applies a unified diff to `before`, checking every context and removed line.
std::string apply(const std::string& before, const std::string& diff) {
  auto src = lines(before);
  auto d = lines(diff);
  std::string out;
  std::size_t at = 0;  // next source line to copy
  char last = ' ';
  for (std::size_t i = 2; i < d.size(); ++i) {
    const std::string& l = d[i];
    if (l.rfind("@@ -", 0) == 0) {
      std::size_t start = std::stoul(l.substr(4));
      std::size_t count = 1;
      if (auto comma = l.find(','); comma != std::string::npos && comma < l.find(' ', 4)) count = std::stoul(l.substr(comma + 1));
      std::size_t first = count == 0 ? start : start - 1;
      REQUIRE(first >= at);
      for (; at < first; ++at) out += src[at];
      continue;
    }
    if (l.rfind("\\ No newline", 0) == 0) {
      // The marker belongs to the line before it; after a removed line it says nothing of the result.
      if (last != '-' && !out.empty() && out.back() == '\n') out.pop_back();
      continue;
    }
    last = l[0];
    std::string body = l.substr(1);
    if (l[0] == ' ' || l[0] == '-') {
      REQUIRE(at < src.size());
      std::string s = src[at];
      if (s.back() != '\n') s += '\n';
      CHECK(s == body);
      ++at;
      if (l[0] == ' ') out += src[at - 1];
    } else {
      REQUIRE(l[0] == '+');
      out += body;
    }
  }
  for (; at < src.size(); ++at) out += src[at];
  return out;
}

}  // namespace

TEST_CASE("equal texts give no diff") { CHECK(dsls::cli::unifiedDiff("a\nb\n", "a\nb\n", "a/x", "b/x").empty()); }

TEST_CASE("a one-line change with context") {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  std::string after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  std::string diff = dsls::cli::unifiedDiff(before, after, "a/f", "b/f");
  CHECK(diff == "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST_CASE("a missing final newline is marked") {
  std::string diff = dsls::cli::unifiedDiff("a\nb", "a\nc", "a/f", "b/f");
  CHECK(diff == "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
}

TEST_CASE("random edits round-trip through the diff") {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> a;
    int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) a.push_back(std::to_string(rng() % 6) + "\n");
    std::vector<std::string> b = a;
    int edits = static_cast<int>(rng() % 6);
    for (int e = 0; e < edits; ++e) {
      std::size_t pos = b.empty() ? 0 : rng() % (b.size() + 1);
      switch (rng() % 3) {
        case 0: b.insert(b.begin() + static_cast<long>(pos), "new" + std::to_string(e) + "\n"); break;
        case 1: if (pos < b.size()) b.erase(b.begin() + static_cast<long>(pos)); break;
        default: if (pos < b.size()) b[pos] = "changed\n";
      }
    }
    std::string before, after;
    for (auto& s : a) before += s;
    for (auto& s : b) after += s;
    if (rng() % 4 == 0 && !after.empty()) after.pop_back();
    std::string diff = dsls::cli::unifiedDiff(before, after, "a/f", "b/f");
    if (before == after) {
      CHECK(diff.empty());
      continue;
    }
    CAPTURE(before);
    CAPTURE(after);
    CAPTURE(diff);
    CHECK(apply(before, diff) == after);
  }
}

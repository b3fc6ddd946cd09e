#include "cli/unified_diff.h"

#include <algorithm>
#include <vector>

namespace dsls::cli {
namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

enum class Op { Keep, Remove, Add };

struct Step {
  Op op;
  std::size_t a, b;  // line indices in before / after
};

// Myers' O((N+M)D) shortest edit script; the common prefix and suffix are trimmed first.
std::vector<Step> editScript(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  const long n = static_cast<long>(a.size() - prefix - suffix), m = static_cast<long>(b.size() - prefix - suffix);
  const long max = n + m;
  const long offset = max + 1;
  std::vector<long> v(static_cast<std::size_t>(2 * max + 2), 0);
  long* const vk = v.data() + offset;  // vk[k]: the x reached on diagonal k, -max <= k <= max
  // The trimmed middles, indexed by the signed x and y of the search.
  const std::string_view* const midA = a.data() + prefix;
  const std::string_view* const midB = b.data() + prefix;
  // trace[d] keeps v for diagonals -d..d as it was before round d: O(D^2) memory, not O((N+M)D).
  std::vector<std::vector<long>> trace;
  auto snapshot = [&](long d) {
    return std::vector<long>(v.begin() + (offset - d), v.begin() + (offset + d + 1));
  };
  long found = -1;
  for (long d = 0; d <= max && found < 0; ++d) {
    trace.push_back(snapshot(d));
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && vk[k - 1] < vk[k + 1])) ? vk[k + 1] : vk[k - 1] + 1;
      long y = x - k;
      while (x < n && y < m && midA[x] == midB[y]) ++x, ++y;
      vk[k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  // Walk the trace backwards into steps over the trimmed middle.
  std::vector<Step> middle;
  // x and y never go below 0 here.
  auto step = [&](Op op, long sx, long sy) {
    middle.push_back({op, prefix + static_cast<std::size_t>(sx), prefix + static_cast<std::size_t>(sy)});
  };
  long x = n, y = m;
  for (long d = found; d > 0; --d) {
    const std::vector<long>& pv = trace[static_cast<std::size_t>(d)];
    auto at = [&](long k) { return pv[static_cast<std::size_t>(k + d)]; };
    long k = x - y;
    long prevK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
    long prevX = at(prevK);
    long prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      --x, --y;
      step(Op::Keep, x, y);
    }
    if (x == prevX) step(Op::Add, x, --y);
    else step(Op::Remove, --x, y);
  }
  while (x > 0 && y > 0) {
    --x, --y;
    step(Op::Keep, x, y);
  }
  std::vector<Step> steps;
  for (std::size_t i = 0; i < prefix; ++i) steps.push_back({Op::Keep, i, i});
  steps.insert(steps.end(), middle.rbegin(), middle.rend());
  for (std::size_t i = 0; i < suffix; ++i)
    steps.push_back({Op::Keep, a.size() - suffix + i, b.size() - suffix + i});
  return steps;
}

void appendLine(std::string& out, char mark, std::string_view line) {
  out += mark;
  out.append(line);
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

std::string range(std::size_t start, std::size_t count) {
  // diff -u numbers an empty range by the line before it.
  if (count == 0) return std::to_string(start) + ",0";
  if (count == 1) return std::to_string(start + 1);
  return std::to_string(start + 1) + "," + std::to_string(count);
}

}  // namespace

std::string unifiedDiff(std::string_view before, std::string_view after, const std::string& oldName,
                        const std::string& newName, std::size_t context) {
  if (before == after) return {};
  auto a = splitLines(before), b = splitLines(after);
  std::vector<Step> steps = editScript(a, b);
  std::string out = "--- " + oldName + "\n+++ " + newName + "\n";
  std::size_t i = 0;
  while (i < steps.size()) {
    if (steps[i].op == Op::Keep) {
      ++i;
      continue;
    }
    // A hunk: `context` kept lines around changes, merging changes closer than 2 * context.
    std::size_t start = i >= context ? i - context : 0;
    std::size_t end = i;
    while (end < steps.size()) {
      if (steps[end].op != Op::Keep) {
        ++end;
        continue;
      }
      std::size_t run = end;
      while (run < steps.size() && steps[run].op == Op::Keep) ++run;
      if (run == steps.size() || run - end > 2 * context) {
        end = std::min(run, end + context);
        break;
      }
      end = run;
    }
    std::size_t aStart = steps[start].a, bStart = steps[start].b, aCount = 0, bCount = 0;
    for (std::size_t j = start; j < end; ++j) {
      if (steps[j].op != Op::Add) ++aCount;
      if (steps[j].op != Op::Remove) ++bCount;
    }
    out += "@@ -" + range(aStart, aCount) + " +" + range(bStart, bCount) + " @@\n";
    for (std::size_t j = start; j < end; ++j) {
      const Step& s = steps[j];
      if (s.op == Op::Keep) appendLine(out, ' ', a[s.a]);
      else if (s.op == Op::Remove) appendLine(out, '-', a[s.a]);
      else appendLine(out, '+', b[s.b]);
    }
    i = end;
  }
  return out;
}

}  // namespace dsls::cli

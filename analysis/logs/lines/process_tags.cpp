#include "analysis/logs/lines/process_tags.h"

#include <algorithm>

namespace dsls::logs {
namespace {

constexpr std::size_t kMaxTagBytes = 24;
constexpr std::size_t kMaxCandidates = 16;
constexpr std::size_t kMaxValues = 1024;
constexpr std::size_t kMinLines = 4;

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isBlank(char c) { return c == ' ' || c == '\t'; }
bool endsTag(char c) { return c == ':' || c == ']' || c == '>' || c == '|'; }

}  // namespace

std::optional<TagMatch> tagCandidate(std::string_view line) {
  std::size_t end = 0;
  while (end < line.size() && end <= kMaxTagBytes && !isBlank(line[end])) ++end;
  if (end == 0 || end > kMaxTagBytes || end >= line.size() || !endsTag(line[end - 1])) return std::nullopt;
  std::size_t after = end;
  while (after < line.size() && isBlank(line[after])) ++after;
  if (after == line.size()) return std::nullopt;  // a tag before nothing says nothing
  TagMatch out;
  std::size_t runs = 0, digits = 0;
  long value = 0;
  for (std::size_t i = 0; i < end; ++i) {
    const char c = line[i];
    if (!isDigit(c)) {
      out.shape.push_back(c);
      continue;
    }
    if (i == 0 || !isDigit(line[i - 1])) {
      ++runs;
      out.shape.push_back('#');
    }
    ++digits;
    value = value * 10 + (c - '0');
  }
  if (runs != 1 || digits > 5) return std::nullopt;
  out.shape.push_back(' ');
  out.length = end + 1;
  out.process = static_cast<int>(value);
  return out;
}

void ProcessTags::observe(std::string_view line, bool knownRank) {
  if (!learning()) return;
  ++observed_;
  if (knownRank) return;
  auto tag = tagCandidate(line);
  if (!tag) return;
  auto it = std::find_if(candidates_.begin(), candidates_.end(),
                         [&](const Candidate& c) { return c.shape == tag->shape; });
  if (it == candidates_.end()) {
    if (candidates_.size() >= kMaxCandidates) return;
    candidates_.push_back(Candidate{tag->shape, 0, {}, false});
    it = candidates_.end() - 1;
  }
  Candidate& c = *it;
  ++c.lines;
  if (std::find(c.values.begin(), c.values.end(), tag->process) != c.values.end()) c.repeated = true;
  else if (c.values.size() < kMaxValues) c.values.push_back(tag->process);
  // Several processes, each on several lines on average: line numbers never repeat.
  const bool isTag = c.lines >= kMinLines && c.values.size() >= 2 && c.repeated && 2 * c.values.size() <= c.lines;
  if (isTag && std::find(learned_.begin(), learned_.end(), c.shape) == learned_.end()) learned_.push_back(c.shape);
}

std::optional<TagMatch> ProcessTags::match(std::string_view line) const {
  if (learned_.empty()) return std::nullopt;
  auto tag = tagCandidate(line);
  if (!tag || std::find(learned_.begin(), learned_.end(), tag->shape) == learned_.end()) return std::nullopt;
  return tag;
}

}  // namespace dsls::logs

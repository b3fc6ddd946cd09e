#include "analysis/embedded/source_map.h"

#include <algorithm>

namespace dsls::embedded {
namespace {

using analysis::TextRange;

// The first segment whose JSON token ends after `at` (the one `at` is in, or the next).
template <class Segments>
auto segmentAtOrAfter(const Segments& segments, std::size_t at) {
  return std::upper_bound(segments.begin(), segments.end(), at,
                          [](std::size_t offset, const Segment& s) { return offset < s.json.end; });
}

}  // namespace

std::size_t SourceMap::sourceBegin(std::size_t json) const {
  auto it = segmentAtOrAfter(segments_, json);
  if (it == segments_.end()) return segments_.empty() ? 0 : segments_.back().source.end;
  if (json <= it->json.begin) return it->source.begin;
  return std::min(it->source.begin + (json - it->json.begin), it->source.end);
}

std::size_t SourceMap::sourceEnd(std::size_t json) const {
  auto it = segmentAtOrAfter(segments_, json);
  if (it != segments_.end() && json > it->json.begin)
    return std::min(it->source.begin + (json - it->json.begin), it->source.end);
  if (it == segments_.begin()) return segments_.empty() ? 0 : it->source.begin;
  return std::prev(it)->source.end;
}

TextRange SourceMap::toSource(TextRange json) const {
  const std::size_t begin = sourceBegin(json.begin);
  if (json.end <= json.begin) return {begin, begin};
  return {begin, std::max(begin, sourceEnd(json.end))};
}

std::optional<std::size_t> SourceMap::toJson(std::size_t source) const {
  for (const Segment& s : segments_)
    if (source >= s.source.begin && source < s.source.end)
      return std::min(s.json.begin + (source - s.source.begin), s.json.end - 1);
  return std::nullopt;
}

std::optional<TextRange> SourceMap::toJson(TextRange source) const {
  std::optional<TextRange> out;
  for (const Segment& s : segments_) {
    const bool touches = s.source.begin < std::max(source.end, source.begin + 1) && source.begin < s.source.end;
    if (!touches) continue;
    if (!out) out = s.json;
    out->begin = std::min(out->begin, s.json.begin);
    out->end = std::max(out->end, s.json.end);
  }
  return out;
}

// The source offset of a JSON offset that is a piece's begin or end, or any offset inside a
// verbatim piece; none inside another piece or between two pieces not adjacent in the source.
std::optional<std::size_t> SourceMap::boundary(std::size_t json) const {
  for (const Segment& s : segments_) {
    if (s.json.begin == json) return s.source.begin;
    if (s.json.end == json) return s.source.end;
    if (s.verbatim && s.json.begin < json && json < s.json.end) return s.source.begin + (json - s.json.begin);
  }
  return std::nullopt;
}

bool SourceMap::writtenByHost(TextRange json) const {
  bool touchedAny = false;
  for (const Segment& s : segments_) {
    if (!(s.json.begin < std::max(json.end, json.begin + 1) && json.begin < s.json.end)) continue;
    if (s.written) return true;
    touchedAny = true;
  }
  return !touchedAny;
}

bool SourceMap::editable(TextRange json) const {
  return std::none_of(segments_.begin(), segments_.end(), [&](const Segment& s) {
    const bool touched = s.json.begin < std::max(json.end, json.begin + 1) && json.begin < s.json.end;
    return touched && !s.editable;
  });
}

// One JSON scalar (a number, a literal or a string with no line break) replacing exactly one
// editable piece.
bool SourceMap::scalarValueEdit(const analysis::TextEdit& edit) const {
  const std::string& t = edit.newText;
  const bool quoted = t.size() >= 2 && t.front() == '"' && t.back() == '"' && t.find('\n') == std::string::npos;
  const bool bare = !t.empty() && t.find_first_of(",:{}[]\"'#\n ") == std::string::npos;
  if (!quoted && !bare) return false;
  return std::any_of(segments_.begin(), segments_.end(), [&](const Segment& s) {
    return s.editable && s.json.begin == edit.range.begin && s.json.end == edit.range.end;
  });
}

std::optional<analysis::TextEdit> SourceMap::toSource(const analysis::TextEdit& edit) const {
  if (policy_ == EditPolicy::ScalarValues && !scalarValueEdit(edit)) return std::nullopt;
  auto begin = boundary(edit.range.begin);
  auto end = boundary(edit.range.end);
  if (!begin || !end || *end < *begin || !editable(edit.range)) return std::nullopt;
  return analysis::TextEdit{{*begin, *end}, spelling_ ? spelling_(edit.newText) : edit.newText};
}

}  // namespace dsls::embedded

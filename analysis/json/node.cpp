#include "analysis/json/document.h"

namespace dsls::json {

std::string_view Node::raw(std::string_view text) const {
  if (range.begin >= text.size() || range.end <= range.begin) return {};
  return text.substr(range.begin, range.end - range.begin);
}

const Member* Node::find(std::string_view key) const {
  for (const Member& m : members())
    if (m.key == key) return &m;
  return nullptr;
}

}  // namespace dsls::json

#include "lsp/plain_text.h"

namespace dsls::lsp {

namespace {

// At `[`: the length of a whole "[text](target)" link, or 0 when it is not one.
std::size_t linkLength(std::string_view s, std::size_t at, std::string_view& text, std::string_view& target) {
  std::size_t close = s.find(']', at);
  if (close == std::string_view::npos || close + 1 >= s.size() || s[close + 1] != '(') return 0;
  std::size_t end = s.find(')', close);
  if (end == std::string_view::npos || s.substr(at, end - at).find('\n') != std::string_view::npos) return 0;
  text = s.substr(at + 1, close - at - 1);
  target = s.substr(close + 2, end - close - 2);
  return end - at + 1;
}

}  // namespace

std::string markdownToPlainText(std::string_view md) {
  std::string out;
  out.reserve(md.size());
  for (std::size_t i = 0; i < md.size();) {
    if (md.compare(i, 2, "**") == 0) {
      i += 2;
      continue;
    }
    if (md[i] == '`') {
      ++i;
      continue;
    }
    if (md[i] == '[') {
      std::string_view text, target;
      if (std::size_t n = linkLength(md, i, text, target)) {
        out.append(text);
        if (target != text) out.append(" (").append(target).append(")");
        i += n;
        continue;
      }
    }
    out.push_back(md[i++]);
  }
  return out;
}

}  // namespace dsls::lsp

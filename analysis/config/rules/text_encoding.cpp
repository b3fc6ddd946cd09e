#include "analysis/config/rules/text_encoding.h"

#include "analysis/config/rule.h"
#include "analysis/json/utf8.h"

#include <fmt/format.h>

namespace dsls::config {

std::optional<analysis::Finding> notUtf8Finding(std::string_view text) {
  std::optional<analysis::TextRange> first;
  std::size_t runs = 0;
  for (std::size_t i = json::utf8::skipAscii(text, 0); i < text.size(); i = json::utf8::skipAscii(text, i)) {
    std::size_t n = json::utf8::sequenceLength(text, i);
    if (n > 0) {
      i += n;
      continue;
    }
    std::size_t begin = i++;
    while (i < text.size() && static_cast<unsigned char>(text[i]) >= 0x80 && json::utf8::sequenceLength(text, i) == 0) ++i;
    if (!first) first = analysis::TextRange{begin, i};
    ++runs;
  }
  if (!first) return std::nullopt;
  std::string where = runs == 1 ? "here" : fmt::format("here and in {} more places", runs - 1);
  return makeFinding(RuleId::JsonSyntax,
                     fmt::format("the file is not UTF-8 text (bytes that are not valid UTF-8 {}), so no JSON loader "
                                 "reads it; nothing else in it is checked",
                                 where),
                     *first);
}

std::optional<analysis::Finding> byteOrderMarkFinding(std::string_view text) {
  if (!text.starts_with("\xEF\xBB\xBF")) return std::nullopt;
  analysis::Finding f = makeFinding(
      RuleId::JsonSyntax,
      "the file starts with a UTF-8 byte order mark: Python's json.load, which HF Trainer and Accelerate use, "
      "refuses it (\"Unexpected UTF-8 BOM\"); whether DeepSpeed's own loader reads past it depends on how it opens "
      "the file",
      analysis::TextRange{0, 3});
  f.fixes.push_back({"Remove the byte order mark", {{analysis::TextRange{0, 3}, ""}}, true, true});
  return f;
}

}  // namespace dsls::config

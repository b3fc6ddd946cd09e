#include "analysis/json/hjson_quoteless.h"

namespace dsls::json {

bool hjsonReadsQuoteless(std::string_view text, const Node& value) {
  if (value.kind != Kind::Invalid || value.string.empty() || value.range.end > text.size()) return false;
  for (std::size_t i = value.range.end; i < text.size() && text[i] != '\n'; ++i)
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r') return false;
  return true;
}

}  // namespace dsls::json

// docs/rules/*.md, embedded into the binary at build time (see cli/embed_rule_docs.cmake).
#pragma once

#include <cstddef>
#include <string_view>

namespace dsls::cli {

struct EmbeddedRuleDoc {
  std::string_view code;      // the file name without ".md"
  std::string_view markdown;
};

extern const EmbeddedRuleDoc kEmbeddedRuleDocs[];
extern const std::size_t kEmbeddedRuleDocCount;

}  // namespace dsls::cli

// The documentation of every code `dsls check` can report (analysis::ruleList() lists them):
// the pages of docs/rules, or what the registries say.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dsls::cli {

// The page docs/rules/<code>.md as embedded at build time, if there is one.
std::optional<std::string_view> ruleDocumentation(std::string_view code);

// The documentation `dsls explain` prints: the page, or one built from the registry.
std::optional<std::string> explainRule(std::string_view code);

}  // namespace dsls::cli

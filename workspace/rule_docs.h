// Where the rule pages (docs/rules/*.md) are on this machine, for links from findings.
#pragma once

#include <string>
#include <string_view>

namespace dsls::workspace {

// The page of a rule code: <docs>/rules/<code>.md, where <docs> is share/doc/dsls beside an
// installed binary, else the docs folder of the source tree. Log codes share one page, the
// failure catalogue (<docs>/rules/../logs/README.md).
std::string ruleDocsPath(std::string_view code);

}  // namespace dsls::workspace

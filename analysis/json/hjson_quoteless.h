// hjson's quoteless strings: a value written without quotes (`"device": cpu`) is read by hjson as
// the text up to the end of its line, so it is the intended string only when nothing else
// follows it on that line (a comma or a brace there becomes part of the string).
#pragma once

#include "analysis/json/document.h"

#include <string_view>

namespace dsls::json {

// Whether `value`, an Invalid node made from unquoted text, is read by hjson as exactly that text.
bool hjsonReadsQuoteless(std::string_view text, const Node& value);

}  // namespace dsls::json

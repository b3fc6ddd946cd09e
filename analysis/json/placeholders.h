// Template placeholders where a JSON value belongs: what a launch script, a template engine or
// sed fills in before DeepSpeed reads the file. The parser reads each as one unknown value
// instead of a run of syntax errors.
#pragma once

#include <cstddef>
#include <string_view>

namespace dsls::json {

// The end of the placeholder that starts at `at`, or 0 when none does. The forms: ${NAME} (and
// ${NAME:-default}), $NAME, {{ expression }}, @NAME@, and a bare name that is upper-case
// (CONFIG_BATCH_SIZE) or capitalised with an underscore (CL_1st_MIN); not TRUE, FALSE, NULL,
// NAN, INF, NONE, nor True, False, None: those are misspelt literals.
std::size_t placeholderEnd(std::string_view text, std::size_t at);

// Whether a string's contents are one placeholder of the $ / {{ }} / @ forms: "${OUTPUT_DIR}".
bool isPlaceholderString(std::string_view contents);

}  // namespace dsls::json

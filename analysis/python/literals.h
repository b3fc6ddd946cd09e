// Python literal spellings read as JSON (numbers and plain strings), and JSON written as Python.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dsls::python {

// A Python int or float literal as a JSON number ("1_000" -> "1000", "0x10" -> "16", ".5" ->
// "0.5"); none for complex numbers or what does not read as one.
std::optional<std::string> jsonNumber(std::string_view python);

// A Python string literal (quotes and prefix included) as a JSON string; none for f-strings,
// bytes, and escapes other than \n \t \r \\ \' \" and a line continuation.
std::optional<std::string> jsonString(std::string_view python);

// JSON text spelt as Python: the literals true, false and null outside strings become True,
// False and None.
std::string pythonSpelling(std::string_view json);

}  // namespace dsls::python

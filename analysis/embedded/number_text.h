// Whether a host's literal text is a number JSON can hold as written: the values a shell
// variable or a YAML scalar gives a config.
#pragma once

#include <string_view>

namespace dsls::embedded {

// "2", "-1", "1e-5", "0.9"; not "inf", "nan", "+1", ".5", "1.", "0x10".
bool isJsonNumberText(std::string_view text);

}  // namespace dsls::embedded

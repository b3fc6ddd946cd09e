#include "analysis/embedded/number_text.h"

#include <cctype>
#include <charconv>
#include <system_error>

namespace dsls::embedded {

bool isJsonNumberText(std::string_view s) {
  double d = 0;
  const std::string_view digits = s.starts_with('-') ? s.substr(1) : s;
  if (digits.empty() || !std::isdigit(static_cast<unsigned char>(digits.front())) || s.back() == '.') return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  return ec == std::errc{} && end == s.data() + s.size();
}

}  // namespace dsls::embedded

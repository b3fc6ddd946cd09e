#include "analysis/json/path.h"

namespace dsls::json {

std::string joinPath(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty() && !(part.size() > 1 && part.front() == '[' && part.back() == ']')) out += '.';
    out += part;
  }
  return out;
}

// Appended, not "[" + std::string: that trips GCC 12's -Wrestrict false positive (PR 105329).
std::string indexPart(std::size_t index) { return std::string("[").append(std::to_string(index)).append("]"); }

}  // namespace dsls::json

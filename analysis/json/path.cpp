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

std::string indexPart(std::size_t index) { return "[" + std::to_string(index) + "]"; }

}  // namespace dsls::json

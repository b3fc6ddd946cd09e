#include "workspace/setting_checks.h"

#include "analysis/core/version.h"
#include "workspace/project_settings.h"

#include <algorithm>
#include <vector>

namespace dsls::workspace {
namespace {

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string> versionProblem(std::string_view value) {
  if (analysis::Version::parse(value)) return std::nullopt;
  // Appended, not "'" + std::string: that trips GCC 12's -Wrestrict false positive (PR 105329).
  return std::string("'").append(value).append("' is not a release number such as 0.14.2");
}

std::optional<std::string> ruleCodeProblem(std::string_view codeOrGlob) {
  const std::vector<std::string> codes = knownCodes();
  const std::vector<std::string> pattern{std::string(codeOrGlob)};
  if (std::any_of(codes.begin(), codes.end(), [&](const std::string& c) { return codeMatches(c, pattern); }))
    return std::nullopt;
  const bool glob = codeOrGlob.find_first_of("*?[") != std::string_view::npos;
  std::string message = std::string("'").append(codeOrGlob).append(glob ? "' matches no rule code" : "' is not a rule code");
  auto nearest = std::min_element(codes.begin(), codes.end(), [&](const std::string& a, const std::string& b) {
    return editDistance(codeOrGlob, a) < editDistance(codeOrGlob, b);
  });
  if (nearest != codes.end() && editDistance(codeOrGlob, *nearest) <= std::max<std::size_t>(3, codeOrGlob.size() / 3))
    message.append("; the nearest is '").append(*nearest).append("'");
  return message.append("; `dsls rules` lists them all");
}

}  // namespace dsls::workspace

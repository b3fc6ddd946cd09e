// The VS Code extension declares the `rules` setting with the list of codes dsls reports,
// so settings.json completes them and flags a misspelt one. The list comes from the rule
// registries (rules.inc and the log failures); DSLS_UPDATE_GOLDEN=1 rewrites it.
#include "analysis/facade/rule_list.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using nlohmann::ordered_json;

const std::filesystem::path kManifest = std::filesystem::path(DSLS_SOURCE_DIR) / "editors/vscode/package.json";

std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ordered_json allCodes() {
  ordered_json codes = ordered_json::array();
  for (const auto& rule : dsls::analysis::ruleList()) codes.push_back(rule.code);
  return codes;
}

}  // namespace

TEST_CASE("the VS Code rules setting lists every rule code") {
  const std::string text = readAll(kManifest);
  ordered_json manifest = ordered_json::parse(text, nullptr, false);
  REQUIRE_FALSE(manifest.is_discarded());
  ordered_json& rules = manifest["contributes"]["configuration"]["properties"]["dsls.rules"];
  REQUIRE(rules.is_object());
  const ordered_json expected = allCodes();
  const char* update = std::getenv("DSLS_UPDATE_GOLDEN");
  if (update && std::string_view(update) == "1" && rules["propertyNames"]["enum"] != expected) {
    rules["propertyNames"]["enum"] = expected;
    std::ofstream(kManifest, std::ios::binary | std::ios::trunc) << manifest.dump(2) << "\n";
  }
  CHECK_MESSAGE(rules["propertyNames"]["enum"] == expected,
                "editors/vscode/package.json: dsls.rules.propertyNames.enum is not the list of rule codes "
                "(DSLS_UPDATE_GOLDEN=1 rewrites it)");
  // The file keeps the layout the update writes, so an update changes only the list.
  CHECK(ordered_json::parse(text).dump(2) + "\n" == text);
}

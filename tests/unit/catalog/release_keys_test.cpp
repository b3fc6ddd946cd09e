// The catalog against the keys each DeepSpeed release reads, as generated from DeepSpeed's source
// by scripts/catalog_keys_from_deepspeed.py into tests/fixtures/catalog/deepspeed_keys.json: every
// key a release reads must be in the catalog (as a key or a section, under its name or an alias)
// and available in that release.
#include <doctest/doctest.h>

#include "analysis/catalog/catalog.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using namespace dsls::catalog;

namespace {

const fs::path kKeys = fs::path(DSLS_SOURCE_DIR) / "tests/fixtures/catalog/deepspeed_keys.json";

bool within(const Version& v, const nlohmann::json& runs) {
  for (const auto& run : runs) {
    auto first = Version::parse(run.at(0).get<std::string>()), last = Version::parse(run.at(1).get<std::string>());
    if (first && last && !(v < *first) && !(*last < v)) return true;
  }
  return false;
}

// The catalog's answer for `path` in release `v`: "" when it is known there, else why not.
std::string catalogProblem(const std::string& path, const Version& v) {
  if (const KeyInfo* key = findKey(path)) {
    if (availableIn(*key, v)) return "";
    return "the catalog has it, but not in this release (since " + std::string(key->since) + ", until " +
           std::string(key->until) + ")";
  }
  if (findSection(path)) return "";
  return "not in the catalog";
}

}  // namespace

TEST_CASE("the catalog knows every key each DeepSpeed release reads") {
  std::ifstream in(kKeys);
  REQUIRE_MESSAGE(in.good(), "missing " << kKeys.string() << " (python3 scripts/catalog_keys_from_deepspeed.py)");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json data = nlohmann::json::parse(text.str());
  const auto& releases = data.at("releases");
  REQUIRE(releases.size() >= 40);
  CHECK(releases.front() == "0.8.0");
  std::size_t checked = 0;
  for (const auto& release : releases) {
    auto v = Version::parse(release.get<std::string>());
    REQUIRE(v);
    for (const auto& entry : data.at("keys").items()) {
      // A named copy: clang 14 cannot capture a structured binding in CHECK_MESSAGE's lambda.
      const std::string path = entry.key();
      if (!within(*v, entry.value())) continue;
      ++checked;
      std::string problem = catalogProblem(path, *v);
      CHECK_MESSAGE(problem.empty(), "DeepSpeed " << v->str() << " reads " << path << ": " << problem);
    }
  }
  CHECK(checked > 5000);
}

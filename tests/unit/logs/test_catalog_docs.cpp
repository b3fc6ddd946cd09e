// Every failure the analyser can report is named in the report schema's list of finding ids,
// so the documentation cannot fall behind failure_ids.inc.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "analysis/logs/fingerprints/failure_catalog.h"

TEST_CASE("docs/logs/report-schema.md names every failure id") {
  std::ifstream in(std::string(DSLS_SOURCE_DIR) + "/docs/logs/report-schema.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::string list = doc.substr(doc.find("## Finding ids"));
  for (const auto& failure : dsls::logs::allFailures()) {
    CAPTURE(failure.id);
    // Appended piece by piece: `"`" + std::string` trips GCC 12's -Wrestrict false positive.
    std::string quoted = "`";
    quoted.append(failure.id).append("`");
    CHECK(list.find(quoted) != std::string::npos);
  }
}

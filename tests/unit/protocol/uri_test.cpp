#include "protocol/uri.h"

#include <doctest/doctest.h>

using namespace dsls::protocol;

TEST_CASE("file URIs decode to paths and back") {
  CHECK(uriToPath("file:///home/u/ds%20config.json") == "/home/u/ds config.json");
  CHECK(uriToPath("file://localhost/tmp/a.json") == "/tmp/a.json");
  CHECK_FALSE(uriToPath("untitled:Untitled-1").has_value());
  CHECK(pathToUri("/tmp/a b.json") == "file:///tmp/a%20b.json");
  CHECK(uriToPath(pathToUri("/tmp/ü/x.json")) == "/tmp/ü/x.json");
  CHECK(uriFileName("file:///a/b/zero%5F2.json") == "zero_2.json");
  CHECK(uriFileName("untitled:ds_config.json") == "ds_config.json");
  CHECK(uriToPath("file:///bad%zz") == "/bad%zz");
}

#include "cli/path_glob.h"

#include <doctest/doctest.h>

using dsls::cli::globMatch;

TEST_CASE("a pattern without a slash matches any segment") {
  CHECK(globMatch("*.log", "runs/a/train.log"));
  CHECK(globMatch("node_modules", "web/node_modules/x/ds_config.json"));
  CHECK_FALSE(globMatch("*.log", "runs/a/train.log.gz"));
  CHECK(globMatch("ds_config?.json", "ds_config1.json"));
  CHECK(globMatch("zero[0-3].json", "cfg/zero2.json"));
  CHECK_FALSE(globMatch("zero[!0-3].json", "cfg/zero2.json"));
}

TEST_CASE("a pattern with a slash matches the whole path") {
  CHECK(globMatch("configs/*.json", "configs/a.json"));
  CHECK_FALSE(globMatch("configs/*.json", "configs/sub/a.json"));
  CHECK(globMatch("configs/**/*.json", "configs/sub/deeper/a.json"));
  CHECK(globMatch("configs/**/*.json", "configs/a.json"));
  CHECK(globMatch("**/ds_config.json", "a/b/ds_config.json"));
  CHECK(globMatch("**/ds_config.json", "ds_config.json"));
  CHECK_FALSE(globMatch("**/ds_config.json", "a/xds_config.json"));
  CHECK(globMatch("./configs", "configs/a.json"));  // a folder covers what is below it
  CHECK_FALSE(globMatch("configs", "configsx/a.json"));
}

TEST_CASE("malformed classes do not crash") {
  CHECK(globMatch("a[", "a["));
  CHECK_FALSE(globMatch("a[", "ab"));
  CHECK(globMatch("[]]", "]"));
}

#include "cli/gitignore.h"

#include <doctest/doctest.h>

using dsls::cli::parseGitignore;

TEST_CASE("gitignore lines: comments, negation, folders, anchors") {
  auto lines = parseGitignore("# comment\n\nwandb/\n!keep.json\n/scratch\ndocs/*.tmp\n**/runs\n\\#hash\ntrailing   \n");
  REQUIRE(lines.size() == 7);
  CHECK(lines[0].pattern == "wandb");
  CHECK(lines[0].foldersOnly);
  CHECK_FALSE(lines[0].anchored);
  CHECK(lines[1].negated);
  CHECK(lines[1].pattern == "keep.json");
  CHECK(lines[2].anchored);
  CHECK(lines[2].pattern == "scratch");
  CHECK(lines[3].anchored);
  CHECK(lines[4].pattern == "runs");
  CHECK_FALSE(lines[4].anchored);
  CHECK(lines[5].pattern == "#hash");
  CHECK(lines[6].pattern == "trailing");
}

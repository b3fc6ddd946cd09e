#include "cli/check_options.h"

#include <doctest/doctest.h>

using dsls::cli::CheckOptions;
using dsls::cli::parseCheckOptions;

namespace {

CheckOptions ok(std::vector<std::string> args) {
  auto r = parseCheckOptions(args);
  REQUIRE(std::holds_alternative<CheckOptions>(r));
  return std::get<CheckOptions>(r);
}

std::string error(std::vector<std::string> args) {
  auto r = parseCheckOptions(args);
  REQUIRE(std::holds_alternative<std::string>(r));
  return std::get<std::string>(r);
}

}  // namespace

TEST_CASE("flags, values and repeated options") {
  auto o = ok({"--format=sarif", "--select", "a,b", "--select=c", "--ignore", "d", "--include", "*.json", "--include",
               "*.log", "--world-size", "8", "--launcher=hf", "--fail-on", "error", "--deepspeed-version", "0.14.2",
               "-", "--", "--odd-name.json", "dir"});
  CHECK(o.format == dsls::cli::OutputFormat::Sarif);
  CHECK(*o.rules.select == std::vector<std::string>{"a", "b", "c"});
  CHECK(o.rules.ignore == std::vector<std::string>{"d"});
  CHECK(o.include.size() == 2);
  CHECK(o.base.worldSize == 8);
  CHECK(o.base.launcher == "hf");
  CHECK(o.failOn == dsls::analysis::Severity::Error);
  CHECK(o.base.deepspeedVersion == "0.14.2");
  CHECK(o.paths == std::vector<std::string>{"-", "--odd-name.json", "dir"});
}

TEST_CASE("usage errors") {
  CHECK(error({}).find("no PATH") != std::string::npos);
  CHECK(error({"--format", "xml", "a"}).find("--format") == 0);
  CHECK(error({"--world-size", "0", "a"}).find("--world-size") == 0);
  CHECK(error({"--world-size", "8x", "a"}).find("--world-size") == 0);
  CHECK(error({"--fail-on", "off", "a"}).find("--fail-on") == 0);
  CHECK(error({"--launcher", "slurm", "a"}).find("--launcher") == 0);
  CHECK(error({"--bogus", "a"}).find("unknown option") == 0);
  CHECK(error({"a", "--select"}).find("needs a value") != std::string::npos);
  CHECK(error({"--fix", "--diff", "a"}).find("together") != std::string::npos);
  CHECK(error({"--fix", "-"}).find("standard input") != std::string::npos);
  CHECK(ok({"--help"}).help);
}

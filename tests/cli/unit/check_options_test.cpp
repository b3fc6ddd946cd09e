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
  auto o = ok({"--format=sarif", "--select", "unknown-key,log-*", "--select=overlap-comm-race", "--ignore", "default-changed", "--include", "*.json", "--include",
               "*.log", "--world-size", "8", "--launcher=hf", "--fail-on", "error", "--deepspeed-version", "0.14.2",
               "-", "--", "--odd-name.json", "dir"});
  CHECK(o.format == dsls::cli::OutputFormat::Sarif);
  CHECK(*o.given.selection.select == std::vector<std::string>{"unknown-key", "log-*", "overlap-comm-race"});
  CHECK(o.given.selection.ignore == std::vector<std::string>{"default-changed"});
  CHECK(o.include.size() == 2);
  CHECK(o.given.settings.worldSize == 8);
  CHECK(o.given.settings.launcher == dsls::analysis::Launcher::HfTrainer);
  CHECK(o.failOn == dsls::analysis::Severity::Error);
  CHECK(o.given.settings.deepspeedVersion == "0.14.2");
  CHECK(o.given.settings.deepspeedVersionSource == "--deepspeed-version");
  CHECK(o.paths == std::vector<std::string>{"-", "--odd-name.json", "dir"});
}

TEST_CASE("usage errors") {
  CHECK(error({}).find("no PATH") != std::string::npos);
  CHECK(error({"--format", "xml", "a"}).find("--format") == 0);
  CHECK(error({"--world-size", "0", "a"}).find("--world-size") == 0);
  CHECK(error({"--world-size", "8x", "a"}).find("--world-size") == 0);
  CHECK(error({"--fail-on", "off", "a"}).find("--fail-on") == 0);
  CHECK(error({"--launcher", "slurm", "a"}) ==
        "--launcher: 'slurm' is not a launcher; it must be hf, accelerate or deepspeed");
  CHECK(error({"--world-size", "8x", "a"}) == "--world-size must be a positive integer, not '8x'");
  CHECK(error({"--rule", "overlap-comm-race", "a"}) == "--rule takes CODE=LEVEL, not 'overlap-comm-race'");
  CHECK(error({"--rule", "overlap-comm-race=loud", "a"}) ==
        "--rule overlap-comm-race=loud: must be off, error, warning, information or hint");
  CHECK(error({"--bogus", "a"}).find("unknown option") == 0);
  CHECK(error({"a", "--select"}).find("needs a value") != std::string::npos);
  // Values that would silently change what is checked are usage errors naming the nearest choice.
  CHECK(error({"a", "--deepspeed-version", "banana"}) == "--deepspeed-version: 'banana' is not a release number such as 0.14.2");
  CHECK(error({"a", "--torch-version=2.x"}).find("--torch-version: '2.x' is not a release number") == 0);
  CHECK(error({"a", "--select", "no-such-rule"}).find("'no-such-rule' is not a rule code") != std::string::npos);
  CHECK(error({"a", "--ignore", "overlap-comm-rase"}).find("the nearest is 'overlap-comm-race'") != std::string::npos);
  CHECK(error({"a", "--select", "nope-*"}).find("'nope-*' matches no rule code") != std::string::npos);
  CHECK(error({"a", "--min-severity", "loud"}) == "--min-severity must be error, warning, information or hint, not 'loud'");
  CHECK(*ok({"a", "--min-severity", "warning"}).given.outputSeverity == dsls::analysis::Severity::Warning);
  CHECK(ok({"a", "--config-glob", "train_*.json", "--config-glob=x*.json"}).given.settings.configGlobs ==
        std::vector<std::string>{"train_*.json", "x*.json"});
  CHECK(error({"--fix", "--diff", "a"}).find("together") != std::string::npos);
  CHECK(error({"--fix", "-"}).find("standard input") != std::string::npos);
  CHECK(ok({"--help"}).help);
}

TEST_CASE("--no-progress turns the progress line off") {
  CHECK(ok({"dir"}).progress);
  CHECK_FALSE(ok({"--no-progress", "dir"}).progress);
}

TEST_CASE("every setting of the table is a flag: torch.compile, rule levels") {
  CHECK(ok({"a", "--torch-compile"}).given.settings.torchCompile == true);
  CHECK(ok({"a", "--no-torch-compile"}).given.settings.torchCompile == false);
  CHECK_FALSE(ok({"a"}).given.settings.torchCompile.has_value());
  auto o = ok({"a", "--rule", "overlap-comm-race=error", "--rule=unknown-key=off"});
  CHECK(o.given.settings.ruleOverrides.at("overlap-comm-race") == dsls::analysis::Severity::Error);
  CHECK_FALSE(o.given.settings.ruleOverrides.at("unknown-key").has_value());
  CHECK(error({"a", "--rule", "overlap-comm-rase=off"}).find("the nearest is 'overlap-comm-race'") != std::string::npos);
}

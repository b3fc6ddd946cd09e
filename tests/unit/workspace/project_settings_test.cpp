#include "workspace/project_settings.h"

#include "tests/unit/workspace/temp_tree.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using dsls::analysis::Severity;
using dsls::workspace::parseProjectSettings;

using dsls::test::TempTree;

TEST_CASE("every [tool.dsls] key is read") {
  auto s = parseProjectSettings(R"(
[project]
name = "x"

[tool.dsls]
deepspeed-version = "0.14.2"
torch-version = "2.3.1"
world-size = 16
launcher = "accelerate"
select = ["overlap-comm-race", "log-*"]
ignore = "unknown-key"
config-globs = ["configs/*.json"]
rules = { duplicate-key = "warning", overlap-comm-race = "off" }
)", "pyproject.toml");
  REQUIRE(s);
  CHECK(s->problems.empty());
  CHECK(s->errors.empty());
  const auto& v = s->values;
  CHECK(v.settings.deepspeedVersion == "0.14.2");
  CHECK(v.settings.torchVersion == "2.3.1");
  CHECK(v.settings.worldSize == 16);
  CHECK(v.settings.launcher == dsls::analysis::Launcher::Accelerate);
  REQUIRE(v.selection.select);
  CHECK(v.selection.select->size() == 2);
  CHECK(v.selection.ignore == std::vector<std::string>{"unknown-key"});
  CHECK(v.settings.configGlobs == std::vector<std::string>{"configs/*.json"});
  CHECK(v.settings.ruleOverrides.at("duplicate-key") == Severity::Warning);
  CHECK_FALSE(v.settings.ruleOverrides.at("overlap-comm-race").has_value());
}

TEST_CASE("no [tool.dsls] table, bad values, bad TOML") {
  CHECK_FALSE(parseProjectSettings("[tool.ruff]\nline-length = 100\n", "pyproject.toml"));
  CHECK_FALSE(parseProjectSettings("this is [not toml", "pyproject.toml"));  // and it does not mention dsls

  auto bad = parseProjectSettings("[tool.dsls]\nworld-size = -2\nlaunchr = \"hf\"\nrules = { x = \"loud\" }\n", "p.toml");
  REQUIRE(bad);
  // A key dsls does not know and a level that is none are warned about; a value that fails its
  // check would change what is checked, so it stops the file from being checked.
  CHECK(bad->problems == std::vector<std::string>{"p.toml: [tool.dsls] launchr is not a dsls setting",
                                                  "p.toml: [tool.dsls] rules.x must be off, error, warning, information or hint"});
  CHECK(bad->errors == std::vector<std::string>{"p.toml: [tool.dsls] world-size must be a positive integer"});
  CHECK_FALSE(bad->values.settings.worldSize);

  auto broken = parseProjectSettings("[tool.dsls]\ndeepspeed-version = \n", "p.toml");
  REQUIRE(broken);
  REQUIRE(broken->problems.size() == 1);
  CHECK(broken->problems[0].find("p.toml:2:") == 0);
}

TEST_CASE("the nearest pyproject.toml with [tool.dsls] applies; flags win") {
  TempTree t;
  t.write(".git/HEAD", "ref: refs/heads/main\n");
  t.write("pyproject.toml", "[tool.dsls]\ndeepspeed-version = \"0.14.0\"\nworld-size = 8\nignore = [\"unknown-key\"]\n");
  t.write("sub/pyproject.toml", "[tool.black]\n");  // no [tool.dsls]: looked past
  t.write("sub/cfg/ds_config.json", "{}");
  t.write("sub/requirements.txt", "torch==2.1.0\n");
  std::string file = (t.root / "sub/cfg/ds_config.json").string();

  dsls::workspace::SettingValues given;
  auto r = dsls::workspace::resolveSettings(file, given);
  CHECK(r.projectFile == (t.root / "pyproject.toml").string());
  CHECK(r.settings.deepspeedVersion == "0.14.0");
  CHECK(r.settings.deepspeedVersionSource == "pyproject.toml [tool.dsls]");
  CHECK(r.settings.torchVersion == "2.1.0");  // from the pin between the file and the project root
  CHECK(r.settings.worldSize == 8);
  CHECK_FALSE(r.settings.ruleOverrides.at("unknown-key").has_value());

  given.settings.deepspeedVersion = "0.16.0";
  given.settings.ruleOverrides["unknown-key"] = Severity::Hint;
  given.selection.select = std::vector<std::string>{"unknown-key", "duplicate-key"};
  r = dsls::workspace::resolveSettings(file, given);
  CHECK(r.settings.deepspeedVersion == "0.16.0");
  CHECK(r.settings.ruleOverrides.at("unknown-key") == Severity::Hint);  // the caller's own override wins
  CHECK_FALSE(r.settings.ruleOverrides.at("overlap-comm-race").has_value());  // not selected
  CHECK(r.settings.ruleOverrides.count("duplicate-key") == 0);

  auto isolated = dsls::workspace::resolveSettings(file, dsls::workspace::SettingValues{}, false);
  CHECK(isolated.settings.deepspeedVersion.empty());
  CHECK(isolated.settings.torchVersion.empty());
  CHECK(dsls::workspace::settingsForFile(file, {}).worldSize == 8);
}

TEST_CASE("the search stops at the repository root") {
  TempTree t;
  t.write("pyproject.toml", "[tool.dsls]\nworld-size = 4\n");
  t.write("repo/.git/HEAD", "x\n");
  t.write("repo/ds_config.json", "{}");
  CHECK_FALSE(dsls::workspace::projectSettingsFor((t.root / "repo/ds_config.json").string()));
}

TEST_CASE("a changed pyproject.toml is read again") {
  TempTree t;
  t.write(".git/HEAD", "x\n");
  t.write("pyproject.toml", "[tool.dsls]\nworld-size = 4\n");
  std::string file = (t.root / "ds_config.json").string();
  CHECK(dsls::workspace::projectSettingsFor(file)->values.settings.worldSize == 4);
  t.write("pyproject.toml", "[tool.dsls]\nworld-size = 64\n");
  CHECK(dsls::workspace::projectSettingsFor(file)->values.settings.worldSize == 64);
}

TEST_CASE("code selection with globs") {
  using dsls::workspace::codeSelected;
  std::vector<std::string> none;
  CHECK(codeSelected("log-cuda-oom", std::nullopt, none));
  CHECK(codeSelected("log-cuda-oom", std::vector<std::string>{"log-*"}, none));
  CHECK_FALSE(codeSelected("unknown-key", std::vector<std::string>{"log-*"}, none));
  CHECK_FALSE(codeSelected("log-cuda-oom", std::nullopt, std::vector<std::string>{"log-cuda-*"}));
  auto codes = dsls::workspace::knownCodes();
  CHECK(std::find(codes.begin(), codes.end(), "overlap-comm-race") != codes.end());
  CHECK(std::find(codes.begin(), codes.end(), "log-cuda-oom") != codes.end());
}

// Runs every rule fixture under tests/fixtures/config/rules/<code>/:
//   <case>.json      the ds_config to analyse
//   <case>.settings  optional settings, "key=value" per line (deepspeed, torch, world, launcher, compile)
//   <case>.expected  the findings, one per line: "line:col code severity [tag:x] [related:n] [fixes:n] text"
//                    where text must occur in the message; an empty file means "no finding of this code"
//   <case>.fixed.json  optional: the text after applying the first fix of each finding of this code
// Only the codes named by the directory and in the .expected file are compared, so a change to
// another rule does not break an unrelated fixture.
#include <doctest/doctest.h>

#include "analysis/config/config_analysis.h"
#include "analysis/config/rule.h"
#include "tests/unit/config/config_test_support.h"

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace dsls;

namespace {

const fs::path kRulesDir = fs::path(DSLS_SOURCE_DIR) / "tests/fixtures/config/rules";
const fs::path kDocsDir = fs::path(DSLS_SOURCE_DIR) / "docs/rules";

struct Expectation {
  int line = 0, col = 0;
  std::string code, severity, text;
  std::vector<std::string> tags;
  std::optional<std::size_t> related, fixes;
  std::string source;  // the line as written, for messages
};

std::vector<Expectation> parseExpected(const std::string& content) {
  std::vector<Expectation> out;
  std::istringstream in(content);
  std::string line;
  while (std::getline(in, line)) {
    line = test::trim(line);
    if (line.empty() || line[0] == '#') continue;
    Expectation e;
    e.source = line;
    std::istringstream words(line);
    std::string pos;
    words >> pos >> e.code >> e.severity;
    auto colon = pos.find(':');
    REQUIRE_MESSAGE(colon != std::string::npos, "bad position in expectation: " << line);
    e.line = std::stoi(pos.substr(0, colon));
    e.col = std::stoi(pos.substr(colon + 1));
    std::string rest;
    std::getline(words, rest);
    rest = test::trim(rest);
    // Leading [tag:x] [related:n] [fixes:n] tokens.
    while (!rest.empty() && rest[0] == '[') {
      auto close = rest.find(']');
      REQUIRE(close != std::string::npos);
      std::string token = rest.substr(1, close - 1);
      rest = test::trim(rest.substr(close + 1));
      if (token.starts_with("tag:")) e.tags.push_back(token.substr(4));
      else if (token.starts_with("related:")) e.related = std::stoul(token.substr(8));
      else if (token.starts_with("fixes:")) e.fixes = std::stoul(token.substr(6));
    }
    e.text = rest;
    out.push_back(std::move(e));
  }
  return out;
}

bool hasTag(const analysis::Finding& f, const std::string& tag) {
  for (auto t : f.tags) {
    if (tag == "deprecated" && t == analysis::Tag::Deprecated) return true;
    if (tag == "unnecessary" && t == analysis::Tag::Unnecessary) return true;
  }
  return false;
}

bool matches(const std::string& text, const analysis::Finding& f, const Expectation& e) {
  auto [line, col] = test::lineCol(text, f.range.begin);
  if (line != e.line || col != e.col || f.code != e.code || test::severityName(f.severity) != e.severity) return false;
  if (f.message.find(e.text) == std::string::npos) return false;
  for (const auto& tag : e.tags)
    if (!hasTag(f, tag)) return false;
  if (e.related && f.related.size() != *e.related) return false;
  if (e.fixes && f.fixes.size() != *e.fixes) return false;
  return true;
}

struct Case {
  std::string code;
  fs::path json;
};

std::vector<Case> allCases() {
  std::vector<Case> cases;
  std::error_code ec;
  if (!fs::is_directory(kRulesDir, ec)) return cases;
  for (const auto& dir : fs::directory_iterator(kRulesDir)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path())) {
      std::string name = f.path().filename().string();
      if (f.path().extension() == ".json" && !name.ends_with(".fixed.json"))
        cases.push_back({dir.path().filename().string(), f.path()});
    }
  }
  std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) { return a.json < b.json; });
  return cases;
}

fs::path sibling(const fs::path& json, std::string_view suffix) {
  fs::path p = json;
  p.replace_extension();
  return fs::path(p.string() + std::string(suffix));
}

// The number of findings of the fixture's own code the case expects.
std::size_t runCase(const Case& c) {
  auto text = test::readFile(c.json);
  REQUIRE(text);
  auto expectedText = test::readFile(sibling(c.json, ".expected"));
  REQUIRE_MESSAGE(expectedText.has_value(), "missing " << sibling(c.json, ".expected").string());
  analysis::Settings settings;
  if (auto s = test::readFile(sibling(c.json, ".settings"))) settings = test::parseSettings(*s);
  analysis::ConfigAnalysis a(*text, settings);
  std::vector<Expectation> expected = parseExpected(*expectedText);

  std::set<std::string> codes{c.code};
  for (const auto& e : expected) codes.insert(e.code);
  std::vector<const analysis::Finding*> actual;
  for (const auto& f : a.findings())
    if (codes.count(f.code)) actual.push_back(&f);

  std::string all;
  for (const auto* f : actual) all += "\n  " + test::describe(*text, *f);
  std::vector<bool> used(actual.size(), false);
  for (const auto& e : expected) {
    bool found = false;
    for (std::size_t i = 0; i < actual.size() && !found; ++i)
      if (!used[i] && matches(*text, *actual[i], e)) used[i] = found = true;
    CHECK_MESSAGE(found, c.json.filename().string() << ": expected finding not reported: " << e.source
                                                    << "\nactual findings:" << all);
  }
  for (std::size_t i = 0; i < actual.size(); ++i)
    CHECK_MESSAGE(used[i], c.json.filename().string() << ": unexpected finding: " << test::describe(*text, *actual[i]));

  if (auto fixedExpected = test::readFile(sibling(c.json, ".fixed.json"))) {
    std::string fixed =
        test::applyFirstFixes(*text, a.findings(), [&](const analysis::Finding& f) { return f.code == c.code; });
    CHECK_MESSAGE(fixed == *fixedExpected, c.json.filename().string() << ": fixed text differs. Got:\n" << fixed);
    // The fix resolves what it was offered for.
    analysis::ConfigAnalysis after(fixed, settings);
    std::size_t before = 0, remaining = 0;
    for (const auto& f : a.findings()) before += f.code == c.code && !f.fixes.empty();
    for (const auto& f : after.findings()) remaining += f.code == c.code && !f.fixes.empty();
    CHECK_MESSAGE(remaining < before, c.json.filename().string() << ": the fixes did not remove their findings");
  }
  std::size_t own = 0;
  for (const auto& e : expected) own += e.code == c.code;
  return own;
}

}  // namespace

TEST_CASE("rule fixtures") {
  auto cases = allCases();
  REQUIRE_MESSAGE(!cases.empty(), "no fixtures under " << kRulesDir.string());
  for (const Case& c : cases) {
    SUBCASE(c.json.filename().string().c_str()) {
      INFO("fixture " << c.code << "/" << c.json.filename().string());
      runCase(c);
    }
  }
}

TEST_CASE("every rule has fixtures that trigger it, and a documentation page listed in the index") {
  auto cases = allCases();
  std::map<std::string, std::size_t> triggering;
  std::set<std::string> dirs;
  for (const Case& c : cases) {
    dirs.insert(c.code);
    auto expected = test::readFile(sibling(c.json, ".expected"));
    if (!expected) continue;
    for (const auto& e : parseExpected(*expected)) triggering[c.code] += e.code == c.code;
  }
  auto index = test::readFile(kDocsDir / "README.md");
  CHECK_MESSAGE(index.has_value(), "docs/rules/README.md is missing");
  std::set<std::string> codes;
  for (const auto& rule : config::configRules()) {
    std::string code(rule.code);
    codes.insert(code);
    CHECK_MESSAGE(triggering[code] > 0, "no fixture under tests/fixtures/config/rules/" << code << " triggers " << code);
    CHECK_MESSAGE(fs::exists(kDocsDir / (code + ".md")), "docs/rules/" << code << ".md is missing");
    if (index) CHECK_MESSAGE(index->find("(" + code + ".md)") != std::string::npos, "README.md does not list " << code);
  }
  for (const auto& d : dirs) CHECK_MESSAGE(codes.count(d), "fixture directory " << d << " names no registered rule");
  CHECK(codes.size() >= 25);
}

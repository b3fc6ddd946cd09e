// rules.inc is the only place a ds_config rule is declared: the documentation index and
// the pages follow it, and no source file spells a rule's code by hand.
// DSLS_UPDATE_GOLDEN=1 rewrites the generated part of docs/rules/README.md.
#include <doctest/doctest.h>

#include "analysis/config/rule.h"
#include "tests/unit/config/config_test_support.h"

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using namespace dsls;

namespace {

const fs::path kSourceDir = fs::path(DSLS_SOURCE_DIR);
const fs::path kDocsDir = kSourceDir / "docs/rules";
constexpr std::string_view kGeneratedMarker =
    "<!-- Generated from analysis/facts/rules.inc: edit the table there, then rebuild and run the unit tests with "
    "DSLS_UPDATE_GOLDEN=1. -->\n";

bool updating() {
  const char* v = std::getenv("DSLS_UPDATE_GOLDEN");
  return v && std::string_view(v) == "1";
}

// The tables of docs/rules/README.md: one per group, in the order of rules.inc.
std::string indexTables() {
  std::string out;
  for (std::size_t g = 0; g < std::size(config::kRuleGroupTitles); ++g) {
    out += "\n## " + std::string(config::kRuleGroupTitles[g]) + "\n\n";
    out += "| Code | Default severity | Summary |\n| --- | --- | --- |\n";
    for (const auto& rule : config::configRules()) {
      if (static_cast<std::size_t>(rule.group) != g) continue;
      std::string code(rule.code);
      out += "| [" + code + "](" + code + ".md) | " + test::severityName(rule.severity) + " | " +
             std::string(rule.summary) + " |\n";
    }
  }
  return out;
}

// The words in bold on the "Default severity:" line of a rule page, e.g. "error".
std::optional<std::string> statedDefault(const std::string& page) {
  static const std::regex line(R"(^Default severity: \*\*([a-z]+)\*\*)", std::regex::multiline);
  std::smatch m;
  if (!std::regex_search(page, m, line)) return std::nullopt;
  return m[1].str();
}

// `text` without // comments (a "//" inside a string literal is kept, such as in URLs).
std::string withoutLineComments(const std::string& text) {
  std::string out;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"' || c == '\n') inString = false;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      out += '\n';
    } else {
      out += c;
      inString = c == '"' && !(i > 0 && text[i - 1] == '\'');
    }
  }
  return out;
}

}  // namespace

TEST_CASE("docs/rules/README.md lists every rule as rules.inc declares it") {
  const fs::path path = kDocsDir / "README.md";
  auto readme = test::readFile(path);
  REQUIRE(readme.has_value());
  std::size_t at = readme->find(kGeneratedMarker);
  REQUIRE_MESSAGE(at != std::string::npos, "README.md has lost the line marking its generated part");
  std::string generated = indexTables();
  std::string committed = readme->substr(at + kGeneratedMarker.size());
  if (updating() && committed != generated) {
    test::writeFile(path, readme->substr(0, at + kGeneratedMarker.size()) + generated);
    committed = generated;
  }
  CHECK_MESSAGE(committed == generated, "docs/rules/README.md differs from rules.inc (DSLS_UPDATE_GOLDEN=1 rewrites "
                                        "it). Expected:\n"
                                            << generated);
}

TEST_CASE("every rule page states the default severity of rules.inc") {
  for (const auto& rule : config::configRules()) {
    std::string code(rule.code);
    auto page = test::readFile(kDocsDir / (code + ".md"));
    if (!page) continue;  // a missing page is reported by the fixture test
    auto stated = statedDefault(*page);
    CHECK_MESSAGE(stated.has_value(), code << ".md has no \"Default severity: **...**\" line");
    if (stated) CHECK_MESSAGE(*stated == test::severityName(rule.severity), code << ".md says " << *stated);
  }
}

TEST_CASE("no source file spells a rule code outside rules.inc") {
  for (std::string_view dir : {"analysis", "lsp", "protocol"}) {
    for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / dir)) {
      const fs::path& p = entry.path();
      std::string ext = p.extension().string();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".inc")) continue;
      if (p.filename() == "rules.inc") continue;
      auto text = test::readFile(p);
      REQUIRE(text.has_value());
      std::string code = withoutLineComments(*text);
      for (const auto& rule : config::configRules()) {
        std::string literal = std::string(1, '"').append(rule.code).append(1, '"');
        CHECK_MESSAGE(code.find(literal) == std::string::npos,
                      fs::relative(p, kSourceDir).string() << " spells " << literal << "; use RuleId and ruleCode()");
      }
    }
  }
}

TEST_CASE("makeFinding takes the code and default severity from rules.inc") {
  for (const auto& row : config::kRuleRows) {
    analysis::Finding f = config::makeFinding(row.id, "m", {1, 2});
    CHECK(f.code == row.code);
    CHECK(f.severity == row.severity);
    CHECK(config::findRule(row.code)->id == row.id);
  }
  analysis::Finding weaker = config::makeFinding(config::RuleId::UnknownKey, analysis::Severity::Warning, "m", {});
  CHECK(weaker.severity == analysis::Severity::Warning);
  CHECK(config::configRules().size() == config::kRuleCount);
}

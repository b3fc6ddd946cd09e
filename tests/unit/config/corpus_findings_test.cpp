// Pins the findings on every real ds_config of the corpus in a golden file, so any
// change to what the rules say about real files shows up in review. Regenerate with
// DSLS_UPDATE_GOLDEN=1. The corpus lives outside the repository; without it the tests
// are skipped (tests/unit/missing_input.h).
#include <doctest/doctest.h>

#include "analysis/config/config_analysis.h"
#include "analysis/config/rule.h"
#include "tests/unit/config/config_test_support.h"
#include "tests/unit/missing_input.h"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace dsls;

namespace {

const fs::path kGolden = fs::path(DSLS_SOURCE_DIR) / "tests/fixtures/config/corpus_findings.txt";

const fs::path kCorpus = fs::path(DSLS_CORPUS_DIR) / "configs";

std::vector<fs::path> corpusFiles() {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kCorpus, ec))
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The settings each corpus file is analysed under: unknown everything (what a user gets
// before configuring dsls), and a pinned run (a known version, launcher and world size).
struct Profile {
  std::string name;
  analysis::Settings settings;
};

std::vector<Profile> profiles() {
  Profile plain{"deepspeed=0.16.4 launcher=deepspeed world=8",
                test::parseSettings("deepspeed=0.16.4\nlauncher=deepspeed\nworld=8\n")};
  Profile hf{"deepspeed=0.19.5 launcher=hf", test::parseSettings("deepspeed=0.19.5\nlauncher=hf\n")};
  return {{"defaults", {}}, plain, hf};
}

std::string render(const std::vector<fs::path>& files) {
  std::string out =
      "# Findings of every ds_config rule on the corpus (tests/unit/config/corpus_findings_test.cpp).\n"
      "# Regenerate: DSLS_UPDATE_GOLDEN=1 unit_config -tc='corpus findings*'\n";
  for (const Profile& p : profiles()) {
    out += "\n## settings: " + p.name + "\n";
    for (const fs::path& f : files) {
      auto text = test::readFile(f);
      if (!text) continue;
      analysis::ConfigAnalysis a(*text, p.settings);
      out += "\n" + f.filename().string() + "\n";
      for (const auto& finding : a.findings()) out += "  " + test::describe(*text, finding) + "\n";
    }
  }
  return out;
}

}  // namespace

TEST_SUITE_BEGIN("corpus");

TEST_CASE("corpus findings match the golden file") {
  if (test::skipWithout(kCorpus)) return;
  auto files = corpusFiles();
  REQUIRE_FALSE(files.empty());
  std::string actual = render(files);
  if (const char* update = std::getenv("DSLS_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    test::writeFile(kGolden, actual);
    MESSAGE("rewrote " << kGolden.string());
    return;
  }
  auto expected = test::readFile(kGolden);
  REQUIRE_MESSAGE(expected.has_value(), "missing " << kGolden.string() << "; run with DSLS_UPDATE_GOLDEN=1");
  if (*expected != actual) {
    // Report the first differing line, which is what a reviewer needs to see.
    std::istringstream e(*expected), a(actual);
    std::string el, al;
    int line = 0;
    while (true) {
      bool more = static_cast<bool>(std::getline(e, el));
      bool moreA = static_cast<bool>(std::getline(a, al));
      ++line;
      if (!more && !moreA) break;
      if (el != al || more != moreA) {
        FAIL_CHECK("golden line " << line << " differs\n  expected: " << (more ? el : "<end>")
                                  << "\n  actual:   " << (moreA ? al : "<end>")
                                  << "\nIf the change is intended, regenerate with DSLS_UPDATE_GOLDEN=1.");
        break;
      }
    }
  }
}

TEST_CASE("corpus findings: every finding has a registered code, a non-empty range inside the text, and fixes that "
          "keep the JSON valid") {
  if (test::skipWithout(kCorpus)) return;
  auto files = corpusFiles();
  REQUIRE_FALSE(files.empty());
  for (const Profile& p : profiles()) {
    for (const fs::path& f : files) {
      auto text = test::readFile(f);
      REQUIRE(text);
      analysis::ConfigAnalysis a(*text, p.settings);
      std::size_t syntaxErrors = a.document().errors.size();
      for (const auto& finding : a.findings()) {
        INFO(f.filename().string() << " [" << p.name << "]: " << test::describe(*text, finding));
        CHECK(config::findRule(finding.code) != nullptr);
        CHECK(finding.range.begin <= finding.range.end);
        CHECK(finding.range.end <= text->size());
        CHECK(!finding.message.empty());
        for (const auto& fix : finding.fixes) {
          std::string fixed = test::applyEdits(*text, fix.edits);
          analysis::ConfigAnalysis after(fixed, p.settings);
          INFO("fix: " << fix.title << "\n" << fixed);
          CHECK(after.document().errors.size() <= syntaxErrors);
        }
      }
    }
  }
}

TEST_SUITE_END();

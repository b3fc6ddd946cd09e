// Runs the catalog over the real ds_config corpus: nearly every key people
// write must be known, and the known typos must get the right suggestion.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "analysis/catalog/catalog.h"
#include "tests/unit/missing_input.h"

using namespace dsls::catalog;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Walk {
  int known = 0;
  std::vector<std::string> unknown;  // "file: path"
};

void walk(const json& node, const std::string& parent, const std::string& file, Walk& out) {
  if (!node.is_object()) return;
  const SectionInfo* section = findSection(parent);
  for (auto it = node.begin(); it != node.end(); ++it) {
    std::string path = parent.empty() ? it.key() : parent + "." + it.key();
    if (findKey(path)) {
      ++out.known;
    } else if (section && !section->openKeys) {
      out.unknown.push_back(file + ": " + path);
    }
    walk(it.value(), path, file, out);
  }
}

std::optional<json> load(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

fs::path corpusDir() { return fs::path(DSLS_CORPUS_DIR) / "configs"; }

}  // namespace

TEST_SUITE_BEGIN("corpus");

TEST_CASE("corpus keys are known to the catalog") {
  if (dsls::test::skipWithout(corpusDir())) return;
  Walk w;
  int files = 0, unparsable = 0;
  for (const auto& entry : fs::directory_iterator(corpusDir())) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    auto j = load(entry.path());
    if (!j) {
      ++unparsable;  // not JSON (missing comma, trailing comma): other layers handle those
      continue;
    }
    walk(*j, "", entry.path().filename().string(), w);
  }
  std::ostringstream list;
  for (const auto& u : w.unknown) list << "\n  " << u;
  MESSAGE(files << " corpus files, " << unparsable << " not strict JSON, " << w.known << " known keys, "
                << w.unknown.size() << " unknown in checked sections:" << list.str());
  CHECK(files > 40);
  CHECK(w.known > 500);
  // The unknown ones are typos, misplaced keys and non-DeepSpeed keys; they must stay rare.
  CHECK(w.unknown.size() * 20 < static_cast<std::size_t>(w.known));
}

TEST_CASE("corpus typos get the right suggestion") {
  if (dsls::test::skipWithout(corpusDir())) return;
  struct Case {
    const char* file;
    const char* section;
    const char* key;
    const char* expected;
  };
  const Case cases[] = {
      {"021_dsexamples_zero_offload_10B_comm_overlap_typo.json", "zero_optimization", "comm_overlap", "overlap_comm"},
      {"047_dsexamples_megatron_v115_zero3_infinity_typo.json", "zero_optimization",
       "stage3_param_persitence_threshold", "stage3_param_persistence_threshold"},
      {"046_dsexamples_megatron_v115_zero3_release_legacy.json", "zero_optimization", "cpu_offload_params",
       "cpu_offload_param"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.file);
    auto j = load(corpusDir() / c.file);
    REQUIRE(j);
    // The typo really is in the file, and the catalog does not know it.
    REQUIRE(j->contains(c.section));
    REQUIRE((*j)[c.section].contains(c.key));
    CHECK_FALSE(findKey(std::string(c.section) + "." + c.key));
    auto s = suggest(c.section, c.key);
    REQUIRE_FALSE(s.empty());
    CHECK(s.front() == c.expected);
  }
}

TEST_SUITE_END();

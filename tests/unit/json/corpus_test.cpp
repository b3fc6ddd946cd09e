// Every real config in the shared corpus parses without crashing. The valid ones
// report no errors; the broken ones report exactly what is wrong with them.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "analysis/json/document.h"
#include "analysis/json/locate.h"
#include "tests/unit/json/test_support.h"
#include "tests/unit/missing_input.h"

using namespace dsls::json;
using dsls::json::test::slice;

namespace {

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::filesystem::path configsDir() { return std::filesystem::path(DSLS_CORPUS_DIR) / "configs"; }

}  // namespace

TEST_SUITE_BEGIN("corpus");

TEST_CASE("every corpus config parses; only the broken ones report errors") {
  const auto dir = configsDir();
  if (dsls::test::skipWithout(dir)) return;
  // Files that are not valid JSON even for DeepSpeed's hjson loader, or not JSON at all.
  const std::map<std::string, std::string> broken = {
      {"006_dsexamples_imagenet_missing_comma.json", "expected ',' or '}' after the value of \"fp16\""},
      {"055_axolotl_zero3_missing_brace.json", "the opening '{' is missing before the first key"},
  };
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    const std::string text = readFile(entry.path());
    const Document doc = parse(text);
    REQUIRE(doc.root);
    CHECK(doc.root->kind == Kind::Object);
    CHECK(doc.duplicates.empty());
    // A template (CONFIG_CL_MIN and friends filled in by a script) parses with its placeholders.
    CHECK(doc.placeholders.empty() == (name != "029_dsexamples_curriculum_zero2_placeholders.json"));
    const auto it = broken.find(name);
    if (it == broken.end()) {
      CHECK(doc.errors.empty());
      if (!doc.errors.empty()) MESSAGE(doc.errors[0].message);
      CHECK(doc.root->closed);
    } else {
      REQUIRE_FALSE(doc.errors.empty());
      CHECK(doc.errors[0].message.find(it->second) == 0);
    }
    for (std::size_t off = 0; off <= text.size(); ++off) locate(doc, off);
  }
  CHECK(files >= 50);
}

TEST_CASE("corpus: the missing comma in 006 is one error and everything else is read") {
  const auto path = configsDir() / "006_dsexamples_imagenet_missing_comma.json";
  if (dsls::test::skipWithout(path)) return;
  const std::string text = readFile(path);
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 1);
  CHECK(slice(text, doc.errors[0].range) == "\"gradient_clipping\"");
  CHECK(doc.errors[0].hjsonAccepts);  // DeepSpeed loads it; json.load does not
  CHECK(doc.root->members().size() == 11);
  CHECK(doc.root->find("wall_clock_breakdown") != nullptr);
  CHECK(doc.root->find("optimizer")->value.find("params")->value.find("eps")->value.number == 1e-8);
}

TEST_CASE("corpus: 055 lacks its opening brace; all its sections are read") {
  const auto path = configsDir() / "055_axolotl_zero3_missing_brace.json";
  if (dsls::test::skipWithout(path)) return;
  const std::string text = readFile(path);
  const Document doc = parse(text);
  REQUIRE(doc.errors.size() == 1);
  CHECK(slice(text, doc.errors[0].range) == "\"zero_optimization\"");
  CHECK_FALSE(doc.errors[0].hjsonAccepts);
  for (const char* key : {"zero_optimization", "bf16", "fp16", "optimizer", "scheduler", "wall_clock_breakdown"})
    CHECK(doc.root->find(key) != nullptr);
  CHECK(doc.root->find("zero_optimization")->value.find("stage")->value.number == 3);
}

TEST_CASE("corpus: trailing commas are recorded, 5e8-style sizes are integers") {
  const auto path = configsDir() / "045_deepspeed_autotuning_template_zero3_trailing_comma.json";
  if (dsls::test::skipWithout(path)) return;
  const Document doc = parse(readFile(path));
  CHECK(doc.errors.empty());
  CHECK(doc.trailingCommas.size() == 1);
  const Node& zero = doc.root->find("zero_optimization")->value;
  CHECK(zero.find("reduce_bucket_size")->value.isInteger);
  CHECK(zero.find("reduce_bucket_size")->value.number == 5e8);
  CHECK(zero.find("sub_group_size")->value.number == 1e12);
}

TEST_SUITE_END();

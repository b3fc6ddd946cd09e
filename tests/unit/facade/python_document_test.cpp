// Python documents: the same detection rule as for JSON, findings and fixes in Python offsets.
#include <doctest/doctest.h>

#include <string>

#include "analysis/facade/document_analysis.h"
#include "analysis/facade/document_kind.h"
#include "analysis/facade/features.h"

using namespace dsls::analysis;

namespace {

const std::string kZero2 =
    "ds_config = {\n"
    "    \"train_micro_batch_size_per_gpu\": 1,\n"
    "    \"zero_optimization\": {\"stage\": 2, \"overlap_comm\": True},\n"
    "}\n";

}  // namespace

TEST_CASE("a Python source is a config document only when a dict passes the JSON rule") {
  CHECK(classifyDocument("train.py", "", kZero2, {}) == DocumentKind::PythonConfig);
  CHECK(classifyDocument("untitled:1", "python", kZero2, {}) == DocumentKind::PythonConfig);
  // HF training arguments: one DeepSpeed-like key among many.
  CHECK(classifyDocument("train.py", "", "args = {'output_dir': 'o', 'learning_rate': 1e-5, 'steps_per_print': 1,"
                                         " 'bf16': True, 'gradient_accumulation_steps': 4, 'seed': 1}", {}) ==
        DocumentKind::Other);
  CHECK(classifyDocument("train.py", "", "x = {'steps_per_print': 10, 'project': 'p', 'entity': 'e'}", {}) ==
        DocumentKind::Other);
  CHECK(classifyDocument("train.py", "", "import torch\n", {}) == DocumentKind::Other);
}

TEST_CASE("the overlap_comm race in a Python dict: finding, hover and the fix in the Python text") {
  auto d = analyzeDocument("train.py", "python", kZero2, {});
  REQUIRE(d->kind == DocumentKind::PythonConfig);
  const Finding* race = nullptr;
  for (const auto& f : d->findings)
    if (f.code == "overlap-comm-race") race = &f;
  REQUIRE(race);
  const std::size_t key = kZero2.find("\"overlap_comm\"");
  CHECK(race->range.begin == key);
  CHECK(race->range.end == key + std::string("\"overlap_comm\"").size());
  REQUIRE_FALSE(race->fixes.empty());
  const TextEdit& edit = race->fixes.front().edits.front();
  CHECK(edit.range.begin == kZero2.find("True"));
  CHECK(edit.newText == "False");
  auto hover = hoverAt(*d, key + 2);
  REQUIRE(hover);
  CHECK(hover->range.begin == key);
  auto actions = actionsFor(*d, race->range);  // what an editor sends: the diagnostic's range
  REQUIRE_FALSE(actions.empty());
  CHECK(actions.front().edits.front().newText == "False");
}

TEST_CASE("two config dicts in one file: each analysed, findings merged") {
  const std::string two = kZero2 + "other = " + kZero2.substr(kZero2.find('{'));
  auto d = analyzeDocument("train.py", "python", two, {});
  int races = 0;
  for (const auto& f : d->findings) races += f.code == "overlap-comm-race";
  CHECK(races == 2);
}

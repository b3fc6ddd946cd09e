// An edited ds_config analysed with the previous revision's analysis at hand: an edit inside a
// value or a key reuses its parse, a new member parses again, and the findings are those of an
// analysis from scratch either way.
#include <doctest/doctest.h>

#include "analysis/config/config_analysis.h"
#include "analysis/facade/document_analysis.h"

#include <memory>
#include <string>

using namespace dsls;

namespace {

const std::string kConfig = R"({
  "train_batch_size": 64,
  "gradient_accumulation_steps": 2,
  "zero_optimization": {"stage": 2, "overlap_comm": true, "reduce_bucket_size": 5e8},
  "fp16": {"enabled": true}
})";

std::shared_ptr<const analysis::DocumentAnalysis> analyse(const std::string& text,
                                                          const analysis::DocumentAnalysis* previous = nullptr) {
  return analysis::analyzeDocument("/run/ds_config.json", "json", std::make_shared<const std::string>(text), {},
                                   std::nullopt, {}, previous);
}

// Code, range and message of every finding, in order.
std::string summary(const analysis::DocumentAnalysis& a) {
  std::string out;
  for (const auto& f : a.findings)
    out += f.code + " " + std::to_string(f.range.begin) + "-" + std::to_string(f.range.end) + " " + f.message + "\n";
  return out;
}

std::string replaced(std::string text, const std::string& what, const std::string& with) {
  return text.replace(text.find(what), what.size(), with);
}

}  // namespace

TEST_CASE("an edit inside a value reuses the previous parse and finds what a fresh analysis finds") {
  const auto first = analyse(kConfig);
  REQUIRE(first->config);
  CHECK_FALSE(first->config->reusedParse());
  // Named through the pair, not a structured binding: clang 14 cannot capture one in INFO.
  for (const auto& edit : {std::pair<std::string, std::string>{"\"stage\": 2", "\"stage\": 3"},
                           {"\"stage\": 2", "\"stage\": 1"},
                           {"\"train_batch_size\": 64", "\"train_batch_size\": 640"},
                           {"\"overlap_comm\": true", "\"overlap_comm\": false"},
                           {"5e8", "2e8"}}) {
    const std::string text = replaced(kConfig, edit.first, edit.second);
    INFO(edit.second);
    const auto next = analyse(text, first.get());
    REQUIRE(next->config);
    CHECK(next->config->reusedParse());
    CHECK(summary(*next) == summary(*analyse(text)));
  }
}

TEST_CASE("a renamed key reuses the parse, a new member parses again; both find what a fresh analysis finds") {
  const auto first = analyse(kConfig);
  struct Edit {
    std::string what, with;
    bool reused;
  };
  for (const Edit& edit : {Edit{"\"stage\"", "\"stages\"", true}, Edit{"\"overlap_comm\"", "\"overlap_com\"", true},
                           Edit{"\"stage\": 2,", "\"stage\": 2, \"contiguous_gradients\": false,", false}}) {
    const std::string text = replaced(kConfig, edit.what, edit.with);
    INFO(edit.with);
    const auto next = analyse(text, first.get());
    REQUIRE(next->config);
    CHECK(next->config->reusedParse() == edit.reused);
    CHECK(summary(*next) == summary(*analyse(text)));
  }
}

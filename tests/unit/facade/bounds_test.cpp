// Answers about large documents stay bounded (analysis/core/limits.h), and a ds_config over the
// size limit gets only the JSON checks, with one sentence saying so.
#include <doctest/doctest.h>

#include "analysis/config/config_analysis.h"
#include "analysis/core/limits.h"
#include "analysis/facade/document_analysis.h"
#include "analysis/facade/features.h"
#include "analysis/facts/rule_id.h"

#include <string>

using namespace dsls;
using analysis::SymbolInfo;

namespace {

std::shared_ptr<const analysis::DocumentAnalysis> analyse(std::string text) {
  return analysis::analyzeDocument("/work/ds_config.json", "json", std::move(text), {});
}

std::size_t countSymbols(const std::vector<SymbolInfo>& symbols) {
  std::size_t n = symbols.size();
  for (const auto& s : symbols) n += countSymbols(s.children);
  return n;
}

// {"train_batch_size": 8, "vocab": {"k0": 0, ...}, "zero_optimization": {"stage": 2}}
std::string configWithBigObject(int members) {
  std::string text = "{\"train_batch_size\": 8, \"vocab\": {";
  for (int i = 0; i < members; ++i) text += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": " + std::to_string(i);
  return text + "}, \"zero_optimization\": {\"stage\": 2}}";
}

// The group of the rule that made a finding.
config::RuleGroup groupOf(const analysis::Finding& f) {
  for (const auto& r : config::kRuleRows)
    if (r.code == f.code) return r.group;
  FAIL("a finding of no rule: ", f.code);
  return config::RuleGroup::Json;
}

}  // namespace

TEST_CASE("the outline of a huge object keeps the top levels whole and stays within its bound") {
  auto d = analyse(configWithBigObject(20000));
  auto symbols = analysis::outline(*d);
  REQUIRE(symbols.size() == 3);
  CHECK(symbols[0].name == "train_batch_size");
  CHECK(symbols[2].name == "zero_optimization");
  CHECK(countSymbols(symbols) <= analysis::kMaxOutlineSymbols);
  // The level that does not fit is left out everywhere rather than cut in the middle.
  CHECK(symbols[1].children.empty());
  CHECK(symbols[2].children.empty());
}

TEST_CASE("a small config keeps its whole outline") {
  auto d = analyse(configWithBigObject(10));
  auto symbols = analysis::outline(*d);
  REQUIRE(symbols.size() == 3);
  CHECK(symbols[1].children.size() == 10);
  REQUIRE(symbols[2].children.size() == 1);
  CHECK(symbols[2].children[0].name == "stage");
}

TEST_CASE("document links stop at their bound") {
  std::string text = "{\"train_batch_size\": 8";
  for (int i = 0; i < 3000; ++i) text += ", \"s" + std::to_string(i) + "_path\": \"/data/run\"";
  text += "}";
  auto d = analyse(text);
  auto links = analysis::links(*d);
  CHECK(links.size() == analysis::kMaxLinks);
}

TEST_CASE("document links look inside known sections only") {
  auto d = analyse("{\"zero_optimization\": {\"offload_param\": {\"nvme_path\": \"/nvme\"}},"
                   " \"my_tool\": {\"output_path\": \"/out\"}}");
  bool nvme = false, out = false;
  for (const auto& l : analysis::links(*d)) {
    nvme = nvme || l.target == "file:///nvme";
    out = out || l.target == "file:///out";
  }
  CHECK(nvme);
  CHECK_FALSE(out);
}

TEST_CASE("inlay hints stop at their bound and skip what is outside the visible range") {
  std::string text = "{\"train_batch_size\": 8";
  for (int i = 0; i < 3000; ++i) text += ", \"s" + std::to_string(i) + "\": {\"unknown_knob\": \"auto\"}";
  text += "}";
  auto d = analyse(text);
  auto all = analysis::inlayHints(*d, {0, text.size()});
  CHECK(all.size() == analysis::kMaxInlayHints);
  std::size_t from = text.size() / 2;
  auto tail = analysis::inlayHints(*d, {from, text.size()});
  REQUIRE_FALSE(tail.empty());
  for (const auto& h : tail) CHECK(h.offset >= from);
}

TEST_CASE("a ds_config over the size limit gets only the JSON checks and a notice") {
  std::string text = "{\"zero_optimization\": {\"stage\": 3, \"overlap_comm\": true}, \"unknown_key_here\": 1,"
                     " \"padding\": \"" + std::string(analysis::kMaxConfigBytes, 'x') + "\", \"broken\": }";
  auto d = analyse(text);
  REQUIRE(d->config);
  CHECK(d->config->syntaxOnly());
  REQUIRE_FALSE(d->findings.empty());
  for (const auto& f : d->findings) CHECK(groupOf(f) == config::RuleGroup::Json);
  CHECK(analysis::outline(*d).empty());
  CHECK(analysis::completeAt(*d, 3, true).empty());
  std::string notice = analysis::sizeNotice(*d);
  CHECK(notice.find("ds_config.json") != std::string::npos);
  CHECK(notice.find("16 MiB") != std::string::npos);
}

TEST_CASE("a ds_config under the size limit is analysed in full, without a notice") {
  auto d = analyse("{\"zero_optimization\": {\"stage\": 3}, \"unknown_key_here\": 1}");
  REQUIRE(d->config);
  CHECK_FALSE(d->config->syntaxOnly());
  CHECK(analysis::sizeNotice(*d).empty());
  bool configRule = false;
  for (const auto& f : d->findings) configRule = configRule || groupOf(f) != config::RuleGroup::Json;
  CHECK(configRule);
}

// The overlap-comm-race rule against every version boundary of the race table, both
// provenances, legacy and "auto" forms, offload forcing, and the exact text of each fix.
#include "analysis/config/config_analysis.h"
#include "analysis/config/config_features.h"

#include <doctest/doctest.h>

#include <algorithm>

using dsls::analysis::ConfigAnalysis;
using dsls::analysis::Finding;
using dsls::analysis::Settings;

namespace {

struct Run {
  std::vector<Finding> race;  // overlap-comm-race findings only
  std::string text;
};

Run analyze(std::string text, std::string ds = "", std::string torch = "", Settings s = {}) {
  s.deepspeedVersion = ds;
  s.torchVersion = torch;
  ConfigAnalysis a(text, s);
  Run r{{}, text};
  for (const auto& f : a.findings())
    if (f.code == "overlap-comm-race") r.race.push_back(f);
  return r;
}

std::string applyFix(const std::string& text, const dsls::analysis::Fix& fix) {
  std::string out = text;
  auto edits = fix.edits;
  std::sort(edits.begin(), edits.end(), [](auto& a, auto& b) { return a.range.begin > b.range.begin; });
  for (const auto& e : edits) out.replace(e.range.begin, e.range.end - e.range.begin, e.newText);
  return out;
}

const std::string kZero2 = R"({
  "zero_optimization": {
    "stage": 2,
    "overlap_comm": true
  }
})";

const std::string kZero1 = R"({"zero_optimization": {"stage": 1, "overlap_comm": true}})";
const std::string kZero3 = R"({"zero_optimization": {"stage": 3}})";
const std::string kZero2Compile = R"({"zero_optimization": {"stage": 2, "overlap_comm": true}, "compile": {"deepcompile": true}})";

}  // namespace

TEST_CASE("ZeRO-2 with overlap_comm: each DeepSpeed boundary") {
  CHECK(analyze(kZero2, "0.7.9").race.empty());
  CHECK(analyze(kZero2, "0.8.0").race.size() == 1);
  CHECK(analyze(kZero2, "0.14.2").race.size() == 1);
  CHECK(analyze(kZero2, "0.14.3").race.size() == 1);  // the allocator race stays until 0.19.0
  CHECK(analyze(kZero2, "0.17.2").race.size() == 1);
  CHECK(analyze(kZero2, "0.18.9").race.size() == 1);
  CHECK(analyze(kZero2, "0.19.0").race.empty());      // only under torch.compile from here
  CHECK(analyze(kZero2, "0.19.2").race.empty());
  CHECK(analyze(kZero2Compile, "0.19.0").race.size() == 1);
  CHECK(analyze(kZero2Compile, "0.19.2").race.size() == 1);
  CHECK(analyze(kZero2Compile, "0.19.3").race.empty());
  CHECK(analyze(kZero2, "0.19.5").race.empty());
}

TEST_CASE("the message names both values, their provenance and the version") {
  auto r = analyze(kZero2, "0.14.2");
  REQUIRE(r.race.size() == 1);
  const auto& m = r.race[0].message;
  CHECK(m.find("overlap_comm = true (set in this file)") != std::string::npos);
  CHECK(m.find("contiguous_gradients = true (DeepSpeed default") != std::string::npos);
  CHECK(m.find("DeepSpeed 0.14.2") != std::string::npos);
  CHECK(m.find("0.19.0 or later") != std::string::npos);
  // The squiggle is on the overlap_comm key; related information points at the stage (contiguous is implicit).
  CHECK(r.text.substr(r.race[0].range.begin, r.race[0].range.end - r.race[0].range.begin) == "\"overlap_comm\"");
  REQUIRE_FALSE(r.race[0].related.empty());
  CHECK(r.race[0].related[0].message.find("contiguous_gradients = true") != std::string::npos);
}

TEST_CASE("unknown version: ZeRO-1/2 still warn and say which versions are affected") {
  auto r = analyze(kZero2);
  REQUIRE(r.race.size() == 1);
  CHECK(r.race[0].message.find("0.8.0 through 0.18.x") != std::string::npos);
  CHECK(r.race[0].message.find("0.19.3") != std::string::npos);
  CHECK(r.race[0].message.find("unknown") != std::string::npos);
  CHECK(r.race[0].severity == dsls::analysis::Severity::Warning);
}

TEST_CASE("ZeRO-1 honours the flags only from 0.13.0") {
  CHECK(analyze(kZero1, "0.12.6").race.empty());
  CHECK(analyze(kZero1, "0.13.0").race.size() == 1);
  CHECK(analyze(kZero1, "0.18.0").race.size() == 1);
  auto unknown = analyze(kZero1);
  REQUIRE(unknown.race.size() == 1);
  CHECK(unknown.race[0].message.find("ZeRO-1 only from 0.13.0") != std::string::npos);
}

TEST_CASE("overlap_comm unset below stage 3 is false: no finding") {
  CHECK(analyze(R"({"zero_optimization": {"stage": 2}})", "0.14.2").race.empty());
  CHECK(analyze(R"({"zero_optimization": {"stage": 2, "overlap_comm": "auto"}})", "0.14.2").race.empty());
}

TEST_CASE("ZeRO-3: only DeepSpeed < 0.18.8 with PyTorch >= 2.10") {
  CHECK(analyze(kZero3).race.empty());
  CHECK(analyze(kZero3, "0.18.7").race.empty());
  CHECK(analyze(kZero3, "0.18.7", "2.9.1").race.empty());
  CHECK(analyze(kZero3, "0.18.8", "2.10.0").race.empty());
  auto hit = analyze(kZero3, "0.18.7", "2.10.0");
  REQUIRE(hit.race.size() == 1);
  CHECK(hit.race[0].message.find("0.18.8") != std::string::npos);
  // The range is the stage key when overlap_comm is implicit.
  CHECK(hit.text.substr(hit.race[0].range.begin, 7) == "\"stage\"");
  CHECK(analyze(kZero3, "", "2.10.0").race.size() == 1);
  CHECK(analyze(R"({"zero_optimization": {"stage": 3, "overlap_comm": false}})", "0.18.7", "2.10.0").race.empty());
  // ZeRO-3 waits on the wrong stream before it looks at contiguous_gradients.
  CHECK(analyze(R"({"zero_optimization": {"stage": 3, "contiguous_gradients": false}})", "0.18.7", "2.10.0")
            .race.size() == 1);
}

TEST_CASE("legacy boolean zero_optimization means stage 1 with overlap off") {
  CHECK(analyze(R"({"zero_optimization": true})", "0.14.2").race.empty());
  Settings s;
  ConfigAnalysis a(R"({"zero_optimization": true})", s);
  CHECK(a.model().zero.stage.value == 1);
  CHECK(a.model().zero.stage.provenance == dsls::config::Provenance::Legacy);
}

TEST_CASE("stage \"auto\" is unknown unless the launcher is known") {
  const std::string text = R"({"zero_optimization": {"stage": "auto", "overlap_comm": true}})";
  CHECK(analyze(text, "0.14.2").race.empty());
  Settings plain;
  plain.launcher = dsls::analysis::Launcher::DeepSpeed;
  CHECK(analyze(text, "0.14.2", "", plain).race.empty());  // plain DeepSpeed: stage 0
  Settings hf;
  hf.launcher = dsls::analysis::Launcher::HfTrainer;
  ConfigAnalysis filled(text, hf);
  CHECK_FALSE(filled.model().zero.stage.value.has_value());  // filled at launch, 2 unless the env says otherwise
  ConfigAnalysis a(text, Settings{});
  CHECK(a.model().zero.stage.provenance == dsls::config::Provenance::Auto);
}

TEST_CASE("an offloaded optimizer forces contiguous_gradients on in ZeRO-1/2") {
  const std::string text =
      R"({"zero_optimization": {"stage": 2, "overlap_comm": true, "contiguous_gradients": false,
          "offload_optimizer": {"device": "cpu"}}})";
  ConfigAnalysis a(text, Settings{});
  CHECK(a.model().zero.contiguousGradients.value == true);
  CHECK(a.model().zero.contiguousGradients.provenance == dsls::config::Provenance::Forced);
  auto r = analyze(text, "0.14.2");
  REQUIRE(r.race.size() == 1);
  CHECK(r.race[0].message.find("forced") != std::string::npos);
  REQUIRE(r.race[0].fixes.size() == 1);  // no contiguous_gradients fix: it would be ignored
  CHECK(r.race[0].fixes[0].title == "Set overlap_comm to false");
}

TEST_CASE("contiguous_gradients false still leaves the allocator race before 0.19.0") {
  auto r = analyze(R"({"zero_optimization": {"stage": 2, "overlap_comm": true, "contiguous_gradients": false}})",
                   "0.15.1");
  REQUIRE(r.race.size() == 1);
  REQUIRE(r.race[0].fixes.size() == 1);
  CHECK(analyze(R"({"zero_optimization": {"stage": 2, "overlap_comm": true, "contiguous_gradients": false}})",
                "0.17.3").race.size() == 1);
}

TEST_CASE("a single rank has nothing to race on") {
  Settings one;
  one.worldSize = 1;
  CHECK(analyze(kZero2, "0.14.2", "", one).race.empty());
}

TEST_CASE("fix: replace the explicit value, nothing else") {
  auto r = analyze(kZero2, "0.14.2");
  REQUIRE(r.race.size() == 1);
  REQUIRE(r.race[0].fixes.size() == 2);
  const auto& preferred = r.race[0].fixes[0];
  CHECK(preferred.preferred);
  CHECK(preferred.safe);
  CHECK(applyFix(r.text, preferred) == R"({
  "zero_optimization": {
    "stage": 2,
    "overlap_comm": false
  }
})");
  CHECK(applyFix(r.text, r.race[0].fixes[1]) == R"({
  "zero_optimization": {
    "stage": 2,
    "overlap_comm": true,
    "contiguous_gradients": false
  }
})");
  CHECK(r.race[0].fixes[1].title.find("not") != std::string::npos);
}

TEST_CASE("fix: insert into a one-line object, keeping its separator") {
  auto r = analyze(R"({"zero_optimization": {"stage": 3}})", "0.18.0", "2.10.1");
  REQUIRE(r.race.size() == 1);
  CHECK(applyFix(r.text, r.race[0].fixes[0]) == R"({"zero_optimization": {"stage": 3, "overlap_comm": false}})");
}

TEST_CASE("fix: trailing-comma style and comments are kept") {
  const std::string text = "{\n\t\"zero_optimization\": {\n\t\t\"stage\": 2, // two\n\t\t\"overlap_comm\": true,\n\t},\n}\n";
  auto r = analyze(text, "0.16.0");
  REQUIRE(r.race.size() == 1);
  CHECK(applyFix(r.text, r.race[0].fixes[1]) ==
        "{\n\t\"zero_optimization\": {\n\t\t\"stage\": 2, // two\n\t\t\"overlap_comm\": true,\n"
        "\t\t\"contiguous_gradients\": false,\n\t},\n}\n");
  const std::string commented = "{\n  \"zero_optimization\": {\n    \"overlap_comm\": true,\n    \"stage\": 2 // ZeRO-2\n  }\n}";
  auto c = analyze(commented, "0.16.0");
  REQUIRE(c.race.size() == 1);
  CHECK(applyFix(c.text, c.race[0].fixes[1]) ==
        "{\n  \"zero_optimization\": {\n    \"overlap_comm\": true,\n    \"stage\": 2, // ZeRO-2\n"
        "    \"contiguous_gradients\": false\n  }\n}");
}

TEST_CASE("code actions on a selected key without a diagnostic") {
  Settings s;
  s.deepspeedVersion = "0.19.5";  // fixed: no diagnostic
  const std::string text = R"({"zero_optimization": {"stage": 2, "overlap_comm": true}})";
  ConfigAnalysis a(text, s);
  CHECK(std::none_of(a.findings().begin(), a.findings().end(), [](auto& f) { return f.code == "overlap-comm-race"; }));
  std::size_t key = text.find("overlap_comm");
  auto actions = dsls::config::actions(a, a.findings(), {key, key});
  REQUIRE(actions.size() == 1);
  CHECK(actions[0].title == "Set overlap_comm to false");
  CHECK(actions[0].kind == dsls::analysis::Action::Kind::Refactor);
  auto none = dsls::config::actions(a, a.findings(), {text.find("stage"), text.find("stage")});
  CHECK(none.empty());
}

TEST_CASE("hover explains the race truthfully") {
  Settings s;
  s.deepspeedVersion = "0.14.2";
  ConfigAnalysis a(kZero2, s);
  auto h = dsls::config::hover(a, a.findings(), kZero2.find("overlap_comm") + 2);
  REQUIRE(h);
  CHECK(h->markdown.find("ZeRO-1 and ZeRO-2") != std::string::npos);
  CHECK(h->markdown.find("0.14.3") != std::string::npos);
  CHECK(h->markdown.find("0.19.3") != std::string::npos);
  CHECK(h->markdown.find("does not exist") != std::string::npos);  // the "v0.14.0 fix" myth
  CHECK(h->markdown.find("deepspeed.__version__") != std::string::npos);
  CHECK(h->markdown.find("at risk on the target DeepSpeed release") != std::string::npos);
}

TEST_CASE("inlay hints show implicit effective values after the stage") {
  ConfigAnalysis a(R"({"zero_optimization": {"stage": 3}})", Settings{});
  auto hints = dsls::config::inlayHints(a, {0, 1000});
  REQUIRE_FALSE(hints.empty());
  CHECK(hints[0].label == "overlap_comm: true (default), contiguous_gradients: true (default)");
}

// The rules over a declared range of DeepSpeed releases: a finding every admitted release gives
// is definite and names the range (its safe fix kept), one some give is a warning naming them
// (its fixes not safe), one none give is not reported; version-independent findings do not move.
#include "analysis/config/config_analysis.h"
#include "analysis/core/version_spec.h"
#include "analysis/facts/deepspeed_releases.h"

#include <doctest/doctest.h>

#include <algorithm>

using dsls::analysis::ConfigAnalysis;
using dsls::analysis::Finding;
using dsls::analysis::Severity;
using dsls::analysis::Settings;

namespace {

const char* kZero2 = R"({"zero_optimization": {"stage": 2, "overlap_comm": true}, "comm_overlap": 1})";

Settings over(const std::string& range) {
  Settings s;
  s.deepspeedRange = range;
  auto spec = dsls::analysis::VersionSpec::parse(range);
  REQUIRE(spec);
  for (std::string_view r : dsls::facts::deepspeedReleases())
    if (spec->admits(*dsls::analysis::PepVersion::parse(r))) s.deepspeedReleases.emplace_back(r);
  s.deepspeedVersionSource = "pyproject.toml";
  return s;
}

std::vector<Finding> withCode(const ConfigAnalysis& a, std::string_view code) {
  std::vector<Finding> out;
  for (const auto& f : a.findings())
    if (f.code == code) out.push_back(f);
  return out;
}

}  // namespace

TEST_CASE("a race every admitted release has is definite, names the range and keeps its safe fix") {
  ConfigAnalysis a(kZero2, over(">=0.18.6,<0.19.0"));
  auto race = withCode(a, "overlap-comm-race");
  REQUIRE(race.size() == 1);
  CHECK(race[0].severity == Severity::Warning);
  CHECK(race[0].message ==
        "ZeRO stage 2 with overlap_comm = true (set in this file) and contiguous_gradients = true (DeepSpeed default: "
        "true since DeepSpeed 0.4.3): every release `>=0.18.6,<0.19.0` (from pyproject.toml) allows (0.18.6 to "
        "0.18.9) has a known race in the overlapped gradient reduction that can corrupt gradients (NaN or zero loss, "
        "NaN grad_norm): allocator-reuse on 0.18.6 to 0.18.9 (fixed in 0.19.0). Set overlap_comm to false or upgrade "
        "DeepSpeed to 0.19.3 or later.");
  REQUIRE(!race[0].fixes.empty());
  CHECK(race[0].fixes[0].safe);
}

TEST_CASE("a race some admitted releases have is a warning naming them, its fix not safe") {
  Settings s = over(">=0.17,<0.20");
  s.torchCompile = true;
  ConfigAnalysis a(kZero2, s);
  auto race = withCode(a, "overlap-comm-race");
  REQUIRE(race.size() == 1);
  CHECK(race[0].severity == Severity::Warning);
  INFO(race[0].message);
  CHECK(race[0].message.find("20 of the 23 releases `>=0.17,<0.20` (from pyproject.toml) allows (0.17.0 to 0.19.2) have a known race") !=
        std::string::npos);
  // Which bug on which release: compile-streams alone on 0.19.0 to 0.19.2.
  CHECK(race[0].message.find("compile-streams on 0.17.0 to 0.19.2 under torch.compile (fixed in 0.19.3)") !=
        std::string::npos);
  CHECK(race[0].message.find("allocator-reuse on 0.17.0 to 0.18.9 (fixed in 0.19.0)") != std::string::npos);
  CHECK(race[0].message.find("ping-pong-index on 0.17.2 to 0.17.4 (fixed in 0.17.5)") != std::string::npos);
  for (const auto& fix : race[0].fixes) CHECK(!fix.safe);
}

TEST_CASE("a range entirely after the last fix is quiet") {
  ConfigAnalysis a(kZero2, over(">=0.19.3"));
  CHECK(withCode(a, "overlap-comm-race").empty());
}

TEST_CASE("a message naming the release it was found for and a threshold equal to it stays one finding") {
  // bf16-overflow-unchecked says "DeepSpeed 0.17.1 defaults ... (0.17.1 to 0.19.2)" on 0.17.1.
  ConfigAnalysis a(R"({"bf16": {"enabled": true}, "zero_optimization": {"stage": 2}})", over(">=0.17,<0.20"));
  auto bf16 = withCode(a, "bf16-overflow-unchecked");
  REQUIRE(bf16.size() == 1);
  CHECK(bf16[0].message.rfind("19 of the 23 releases `>=0.17,<0.20` allows (0.17.1 to 0.19.2): DeepSpeed defaults", 0) ==
        0);
}

TEST_CASE("findings that do not depend on the release are as with one version") {
  ConfigAnalysis ranged(kZero2, over(">=0.18.6,<0.19.0"));
  Settings one;
  one.deepspeedVersion = "0.18.6";
  ConfigAnalysis single(kZero2, one);
  auto a = withCode(ranged, "unknown-key"), b = withCode(single, "unknown-key");
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  CHECK(a[0].message == b[0].message);
  CHECK(a[0].severity == b[0].severity);
}

TEST_CASE("any version-aware rule over a range: a finding some releases give is a warning naming them") {
  ConfigAnalysis a(R"({"train_batch_size": 8})", over(">=0.19.0,<0.19.5"));
  auto changed = withCode(a, "default-changed");
  // steps_per_print (unset) is reported by every release, gradient_clipping only before 0.19.3.
  REQUIRE(changed.size() == 2);
  CHECK(changed[1].message.rfind("Every release `>=0.19.0,<0.19.5` allows (0.19.0 to 0.19.4): steps_per_print is "
                                 "not set, so DeepSpeed prints",
                                 0) == 0);
  CHECK(changed[0].severity == Severity::Information);  // its own level: only an error is lowered
  CHECK(changed[0].message == "3 of the 5 releases `>=0.19.0,<0.19.5` allows (0.19.0 to 0.19.2): gradient_clipping "
                              "is not set, so DeepSpeed does not clip gradients: the default is 0.0 before 0.19.3, "
                              "although the documentation says 1.0. Set it if you expect clipping.");
}

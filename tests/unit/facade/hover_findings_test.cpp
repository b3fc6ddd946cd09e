// Hover on a key lists the findings there as the diagnostics publish them: after the user's
// rule overrides, each labelled with its effective severity.
#include <doctest/doctest.h>

#include "analysis/facade/document_analysis.h"
#include "analysis/facade/features.h"

#include <string>

using namespace dsls::analysis;

namespace {

// The second train_batch_size is a duplicate key (an error by default).
const std::string kConfig = "{\n  \"train_batch_size\": 8,\n  \"train_batch_size\": 8\n}\n";
const std::size_t kOnKey = kConfig.rfind("train_batch_size") + 2;

std::string hoverText(const Settings& settings) {
  auto d = analyzeDocument("ds_config.json", "json", kConfig, settings);
  auto h = hoverAt(*d, kOnKey);
  return h ? h->markdown : std::string();
}

}  // namespace

TEST_CASE("hover shows a finding with its default severity") {
  CHECK(hoverText({}).find("**Error** `duplicate-key`") != std::string::npos);
}

TEST_CASE("hover leaves out a rule switched off") {
  Settings s;
  s.ruleOverrides["duplicate-key"] = std::nullopt;
  CHECK(hoverText(s).find("duplicate-key") == std::string::npos);
}

TEST_CASE("hover labels a finding by its overridden severity") {
  Settings s;
  s.ruleOverrides["duplicate-key"] = Severity::Warning;
  CHECK(hoverText(s).find("**Warning** `duplicate-key`") != std::string::npos);
  s.ruleOverrides["duplicate-key"] = Severity::Information;
  CHECK(hoverText(s).find("**Information** `duplicate-key`") != std::string::npos);
  s.ruleOverrides["duplicate-key"] = Severity::Hint;
  CHECK(hoverText(s).find("**Hint** `duplicate-key`") != std::string::npos);
}

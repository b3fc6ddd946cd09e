// Log failures point to ds_config rules by code; every code they name must be a rule of rules.inc.
#include "analysis/config/rule.h"
#include "analysis/logs/fingerprints/failure_catalog.h"

#include <doctest/doctest.h>

TEST_CASE("log failures name only registered ds_config rules") {
  for (const auto& failure : dsls::logs::allFailures())
    for (const std::string& code : dsls::logs::splitList(failure.ruleCodes))
      CHECK_MESSAGE(dsls::config::findRule(code) != nullptr, "log-" << failure.id << " names " << code);
}

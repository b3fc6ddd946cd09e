// A training log opened in the editor: the same options as `dsls check` (the versions the
// settings name) and an analysis that stops when the document changes under it.
#include <doctest/doctest.h>

#include "analysis/core/cancel.h"
#include "analysis/facade/diagnose_text.h"
#include "analysis/facade/document_analysis.h"
#include "analysis/logs/report/log_report.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <string>

using namespace dsls;

namespace {

const std::string kOomLog =
    "[rank1]: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    "[rank0]: [E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation timeout\n";

std::shared_ptr<const analysis::DocumentAnalysis> analyseLog(const std::string& text, const analysis::Settings& settings,
                                                             const analysis::Cancellation& cancel = {}) {
  return analysis::analyzeDocument("/run/train.log", "log", std::make_shared<const std::string>(text), settings,
                                   std::nullopt, cancel);
}

}  // namespace

TEST_CASE("a log opened in the editor takes the versions its settings name when it prints none") {
  analysis::Settings settings;
  settings.deepspeedVersion = "0.14.2";
  settings.torchVersion = "2.3.1";
  auto result = analyseLog(kOomLog, settings);
  REQUIRE(result->log);
  CHECK(result->log->deepspeedVersion == std::optional<std::string>("0.14.2"));
  CHECK(result->log->torchVersion == std::optional<std::string>("2.3.1"));

  auto own = analyseLog("[2024-01-01 00:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed info: "
                        "version=0.19.5, git-hash=unknown, git-branch=unknown\n" + kOomLog,
                        settings);
  CHECK(own->log->deepspeedVersion == std::optional<std::string>("0.19.5"));

  auto none = analyseLog(kOomLog, {});
  CHECK_FALSE(none->log->deepspeedVersion.has_value());
}

TEST_CASE("a log analysis whose document changed stops with Cancelled") {
  std::string big;
  while (big.size() < (std::size_t{3} << 20)) big += kOomLog;
  auto flag = std::make_shared<std::atomic<bool>>(true);
  CHECK_THROWS_AS(analyseLog(big, {}, analysis::Cancellation(flag)), analysis::Cancelled);
  flag->store(false);
  auto result = analyseLog(big, {}, analysis::Cancellation(flag));
  REQUIRE(result->log);
  CHECK_FALSE(result->log->findings.empty());
}

TEST_CASE("a pasted selection takes the versions its settings name, and keeps those it prints") {
  analysis::Settings settings;
  settings.deepspeedVersion = "0.14.2";
  settings.torchVersion = "2.3.1";
  const nlohmann::json named = analysis::diagnoseText(kOomLog, settings);
  CHECK(named["deepspeedVersion"] == "0.14.2");
  CHECK(named["torchVersion"] == "2.3.1");
  CHECK(analysis::diagnoseText(kOomLog)["deepspeedVersion"].is_null());
  const nlohmann::json own = analysis::diagnoseText(
      "[2024-01-01 00:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed info: version=0.19.5, "
      "git-hash=unknown, git-branch=unknown\n" + kOomLog,
      settings);
  CHECK(own["deepspeedVersion"] == "0.19.5");
}

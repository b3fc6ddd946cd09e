// Static description of every failure id the log analyser can report: title,
// severity, how it is ranked when choosing the initiating failure, and the
// mechanism / fix / verify text. Run-specific details are added by the analyser.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/core/finding.h"

namespace dsls::logs {

enum class FailureId : int {
#define DSLS_FAILURE(identifier, id) identifier,
#include "analysis/logs/fingerprints/failure_ids.inc"
#undef DSLS_FAILURE
  Count
};

// The stable id, e.g. "cuda-oom".
std::string_view failureCode(FailureId failure);

// How a failure takes part in choosing the initiating one.
enum class Tier {
  Primary,        // a process failed on its own: exception, OOM, SIGKILL, config error
  Communication,  // NCCL transport errors: a cause only when no primary failure exists
  Collateral,     // consequences: watchdog timeouts, aborts, processes killed by the launcher
  Numeric,        // training numerics; the root problem only when nothing crashed
  Advisory,       // context and warnings, never the initiating failure
};

struct FailureInfo {
  FailureId failure;
  std::string_view id;  // failureCode(failure)
  std::string_view title;
  analysis::Severity severity;
  Tier tier;
  bool rankIndependent;  // raised identically on every rank (configuration errors)
  std::string_view mechanism;
  std::string_view fix;
  std::string_view verify;
  std::string_view configKeys;  // comma separated
  std::string_view ruleCodes;   // comma separated
};

const FailureInfo& failureInfo(FailureId failure);
// Entry for a stable id given as text (command line, settings); nullptr when there is none.
const FailureInfo* findFailure(std::string_view id);
// As findFailure, for ids known to exist; throws std::out_of_range for any other.
const FailureInfo& failureInfo(std::string_view id);
// In catalogue order (the order `dsls rules` lists them).
const std::vector<FailureInfo>& allFailures();

std::vector<std::string> splitList(std::string_view commaSeparated);

}  // namespace dsls::logs

// Static description of every failure id the log analyser can report: title,
// severity, how it is ranked when choosing the initiating failure, and the
// mechanism / fix / verify text. Run-specific details are added by the analyser.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/core/finding.h"

namespace dsls::logs {

// How a failure takes part in choosing the initiating one.
enum class Tier {
  Primary,        // a process failed on its own: exception, OOM, SIGKILL, config error
  Communication,  // NCCL transport errors: a cause only when no primary failure exists
  Collateral,     // consequences: watchdog timeouts, aborts, processes killed by the launcher
  Numeric,        // training numerics; the root problem only when nothing crashed
  Advisory,       // context and warnings, never the initiating failure
};

struct FailureInfo {
  std::string_view id;
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

// Entry for `id`; unknown ids get the generic "python-exception" entry.
const FailureInfo& failureInfo(std::string_view id);
const std::vector<FailureInfo>& allFailures();

std::vector<std::string> splitList(std::string_view commaSeparated);

}  // namespace dsls::logs

// Links between an open training log and an open ds_config: a log finding that names
// config keys (NaN grad_norm -> zero_optimization.overlap_comm) points at those keys,
// and the config's finding for the same rule points back at the log evidence.
#pragma once

#include "analysis/facade/document_analysis.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace dsls::analysis {

struct CrossLinks {
  std::vector<std::pair<std::size_t, Related>> forConfig;  // index into config.findings, related in the log
  std::vector<std::pair<std::size_t, Related>> forLog;     // index into log.findings, related in the config
};

CrossLinks crossLink(const DocumentAnalysis& config, const DocumentAnalysis& log);

}  // namespace dsls::analysis

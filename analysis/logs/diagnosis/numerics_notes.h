// Run-specific explanation for NaN / zero-loss / stuck-grad-norm findings, tied
// to the config flags and versions the run used (overlap_comm races, bf16
// without overflow checks, clipping that turned inf into NaN).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/core/version.h"

namespace dsls::logs {

struct RunConfig {
  std::optional<int> zeroStage;
  std::optional<bool> overlapComm, contiguousGradients, bf16, fp16, checkGradOverflow;
  std::optional<double> gradientClipping;
  std::optional<analysis::Version> deepspeed, torch;
  std::string deepspeedText, torchText;
  bool configFromLog = false;  // the values come from DeepSpeed's own config dump
  bool pipelineDisabledOverlap = false;
  bool sawOverflowLines = false;
};

struct NumericsNotes {
  std::vector<std::string> notes;
  std::vector<std::string> configKeys;
  std::vector<std::string> ruleCodes;
  std::string verify;  // replaces the generic check when set
};

NumericsNotes numericsNotes(const RunConfig& run);

}  // namespace dsls::logs

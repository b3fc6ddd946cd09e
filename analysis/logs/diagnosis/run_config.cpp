// The run's config as far as the log shows it (DeepSpeed's config dump, versions), completed
// by what the caller knows, for the numerics notes.
#include <cstdlib>

#include "analysis/logs/diagnosis/diagnosis_steps.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

std::optional<bool> parseBool(const std::map<std::string, std::string>& cfg, const std::string& key) {
  auto it = cfg.find(key);
  if (it == cfg.end()) return std::nullopt;
  if (it->second == "True" || it->second == "true") return true;
  if (it->second == "False" || it->second == "false") return false;
  return std::nullopt;
}

}  // namespace

RunConfig runConfig(const State& s, const LogReport& r) {
  RunConfig run;
  const auto& cfg = s.facts.resolvedConfig;
  const AnalyzerOptions& o = s.options;
  if (auto it = cfg.find("zero_optimization.stage"); it != cfg.end()) {
    if (auto n = text::parseInt(it->second)) run.zeroStage = static_cast<int>(*n);
    else if (it->second.find("3") != std::string::npos) run.zeroStage = 3;  // <ZeroStageEnum.weights: 3>
    else if (it->second.find("2") != std::string::npos) run.zeroStage = 2;
    else if (it->second.find("1") != std::string::npos) run.zeroStage = 1;
  }
  run.overlapComm = parseBool(cfg, "zero_optimization.overlap_comm");
  run.contiguousGradients = parseBool(cfg, "zero_optimization.contiguous_gradients");
  run.configFromLog = run.overlapComm.has_value();
  if (!run.zeroStage) run.zeroStage = o.zeroStage;
  if (!run.overlapComm) run.overlapComm = o.overlapComm;
  if (!run.contiguousGradients) run.contiguousGradients = o.contiguousGradients;
  run.bf16 = parseBool(cfg, "bf16.enabled");
  if (!run.bf16) run.bf16 = o.bf16Enabled;
  run.fp16 = parseBool(cfg, "fp16.enabled");
  run.checkGradOverflow = parseBool(cfg, "bf16.check_grad_overflow");
  if (auto it = cfg.find("gradient_clipping"); it != cfg.end()) {
    char* end = nullptr;
    const double g = std::strtod(it->second.c_str(), &end);
    if (end != it->second.c_str()) run.gradientClipping = g;
  }
  if (r.deepspeedVersion) {
    run.deepspeed = analysis::Version::parse(*r.deepspeedVersion);
    run.deepspeedText = *r.deepspeedVersion;
  }
  if (r.torchVersion) {
    run.torch = analysis::Version::parse(*r.torchVersion);
    run.torchText = *r.torchVersion;
  }
  run.pipelineDisabledOverlap = s.facts.pipelineDisabledOverlap;
  run.sawOverflowLines = s.numerics.overflowLines > 0;
  return run;
}

}  // namespace dsls::logs::detail

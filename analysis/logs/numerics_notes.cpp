#include "analysis/logs/numerics_notes.h"

#include "analysis/config/rule_id.h"

#include <fmt/format.h>

namespace dsls::logs {
namespace {

using text::Version;

constexpr Version v(int a, int b, int c) { return Version{a, b, c}; }

constexpr std::string_view kOverlapCommRace = config::ruleCode(config::RuleId::OverlapCommRace);

std::string overlapVersionText(const RunConfig& run) {
  if (!run.deepspeed)
    return "The DeepSpeed version is not in the log; the known races were fixed in 0.14.3, 0.18.5, 0.19.0 and "
           "0.19.3 (torch.compile).";
  const Version d = *run.deepspeed;
  if (d < v(0, 19, 0)) {
    std::string t = fmt::format("DeepSpeed {} predates the fix for reduction buffers being recycled while still in "
                                "use (0.19.0)",
                                run.deepspeedText);
    if (d >= v(0, 8, 0) && d < v(0, 14, 3)) t += " and the missing wait before a bucket is reused (0.14.3)";
    if (d >= v(0, 17, 2) && d < v(0, 17, 5)) t += " and has the ping-pong buffer index bug (0.17.2 to 0.17.4)";
    return t + ".";
  }
  return fmt::format("DeepSpeed {} still has the race that appears under torch.compile (fixed in 0.19.3).",
                     run.deepspeedText);
}

}  // namespace

NumericsNotes numericsNotes(const RunConfig& run) {
  NumericsNotes out;
  const char* source = run.configFromLog ? "DeepSpeed's config dump in this log" : "the config given with the log";
  std::optional<bool> overlap = run.overlapComm;
  if (run.pipelineDisabledOverlap) overlap = false;

  if (overlap == true) {
    const std::optional<int> stage = run.zeroStage;
    if (stage == 3) {
      const bool newTorch = run.torch && *run.torch >= v(2, 10, 0);
      const bool oldDeepSpeed = !run.deepspeed || *run.deepspeed < v(0, 18, 8);
      if (newTorch && oldDeepSpeed) {
        out.notes.push_back(fmt::format(
            "ZeRO-3 with overlap_comm on PyTorch {}: DeepSpeed before 0.18.8 made the reduce stream wait on the "
            "default stream although autograd can produce gradients on another one, which has put NaN into "
            "weight partitions (fixed in 0.18.8). The log alone cannot prove this race.",
            run.torchText));
        out.configKeys = {"zero_optimization.overlap_comm", "zero_optimization.contiguous_gradients"};
        out.ruleCodes = {std::string(kOverlapCommRace)};
      } else {
        out.notes.push_back(
            "overlap_comm is on by default in ZeRO-3. The buffer races known for overlap_comm are in ZeRO-1/2; the "
            "ZeRO-3 stream race needs PyTorch 2.10 or newer with DeepSpeed before 0.18.8, which this run does not "
            "show.");
      }
    } else if (stage == 1 && run.deepspeed && *run.deepspeed < v(0, 13, 0)) {
      out.notes.push_back("ZeRO-1 ignored overlap_comm before DeepSpeed 0.13.0, so the overlap_comm races do not "
                          "apply to this run.");
    } else if (stage == 0) {
      // ZeRO disabled: overlap_comm has no effect.
    } else if (run.deepspeed && *run.deepspeed >= v(0, 19, 3)) {
      out.notes.push_back(fmt::format(
          "overlap_comm is on, but DeepSpeed {} contains every known fix for the overlap_comm races (the last in "
          "0.19.3); look for another cause.",
          run.deepspeedText));
      out.configKeys = {"zero_optimization.overlap_comm"};
    } else {
      std::string flags = "zero_optimization.overlap_comm = true";
      if (stage) flags += fmt::format(" with ZeRO stage {}", *stage);
      if (run.contiguousGradients) flags += fmt::format(" and contiguous_gradients = {}", *run.contiguousGradients);
      out.notes.push_back(fmt::format(
          "The run has {} (from {}). ZeRO-1/2 with overlap_comm has had races between the gradient reduction "
          "stream and backward that give exactly these symptoms: NaN or infinite grad_norm, loss 0.0, grad_norm "
          "stuck at 1.4142135623730951. {} The log alone cannot prove the race; rerunning the same steps with "
          "overlap_comm set to false tells.",
          flags, source, overlapVersionText(run)));
      out.configKeys = {"zero_optimization.overlap_comm", "zero_optimization.contiguous_gradients"};
      out.ruleCodes = {std::string(kOverlapCommRace)};
      out.verify =
          "Rerun from the same checkpoint and seed with \"overlap_comm\": false in zero_optimization and compare "
          "grad_norm over the same steps; `dsls check` on the config reports the version-specific risk.";
    }
  } else if (overlap == false) {
    out.notes.push_back(run.pipelineDisabledOverlap
                            ? "Pipeline parallelism turned overlap_comm off, which rules out the overlap_comm races."
                            : fmt::format("overlap_comm is off in this run (from {}), which rules out the "
                                          "overlap_comm races.",
                                          source));
  } else {
    out.notes.push_back(
        "The log does not show the resolved zero_config (DeepSpeed prints it at start-up), so it is unknown "
        "whether overlap_comm was on. With ZeRO-1/2, overlap_comm = true and DeepSpeed older than 0.19.3 the "
        "overlap_comm races are a candidate cause.");
  }

  if (run.bf16 == true && !run.sawOverflowLines) {
    const bool checkOff = run.checkGradOverflow == false;
    const bool oldDefault = !run.checkGradOverflow && (!run.deepspeed || *run.deepspeed < v(0, 19, 3));
    if (checkOff || oldDefault) {
      out.notes.push_back(
          "bf16 is enabled and the log has no overflow lines: unless bf16.check_grad_overflow is true (available "
          "from DeepSpeed 0.17.1, the default from 0.19.3) a step with non-finite gradients is applied and "
          "corrupts the weights.");
      out.configKeys.push_back("bf16.check_grad_overflow");
    }
  }
  if (run.deepspeed && *run.deepspeed >= v(0, 13, 2) && *run.deepspeed < v(0, 16, 6) &&
      run.gradientClipping.value_or(1.0) > 0.0) {
    out.notes.push_back(fmt::format(
        "DeepSpeed {} (0.13.2 to 0.16.5) turns an infinite gradient norm into NaN while clipping (fixed in "
        "0.16.6), so a single overflowing step shows as grad_norm nan.",
        run.deepspeedText));
  }
  if (run.fp16 == true && run.sawOverflowLines) {
    out.notes.push_back(
        "With fp16, steps with non-finite gradients are skipped as overflows (see the OVERFLOW lines): a "
        "non-finite value on a skipped step is expected, a loss scale that keeps falling is not.");
  }
  return out;
}

}  // namespace dsls::logs

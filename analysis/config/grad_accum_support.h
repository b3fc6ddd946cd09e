// The rows of grad_accum_support.inc: which model dtype, gradient-accumulation dtype and
// ZeRO setting DeepSpeed's optimizer sanity check refuses, by release.
#pragma once

#include <span>
#include <string_view>

namespace dsls::config {

enum class ZeroUse { Off, On, Stage1 };
enum class AccumVerdict { Accept, Reject };

struct GradAccumRow {
  ZeroUse zero;
  std::string_view model, accum;  // "fp32", "fp16", "bf16", "*"; accum may be "!="
  std::string_view since, until;  // release range, "" = open
  AccumVerdict verdict;
  bool pipelineExempt;            // a PipelineModule is accepted (the config cannot say)
  std::string_view deepspeed;     // what DeepSpeed raises for a Reject row
};

std::span<const GradAccumRow> gradAccumRows();

}  // namespace dsls::config

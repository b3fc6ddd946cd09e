// The table of grad_accum_support.inc.
#include "analysis/config/grad_accum_support.h"

namespace dsls::config {

namespace {

constexpr GradAccumRow kRows[] = {
#define DSLS_GRAD_ACCUM(zero, model, accum, since, until, verdict, pipelineExempt, deepspeed) \
  {ZeroUse::zero, model, accum, since, until, AccumVerdict::verdict, pipelineExempt, deepspeed},
#include "analysis/config/grad_accum_support.inc"
};

}  // namespace

std::span<const GradAccumRow> gradAccumRows() { return kRows; }

}  // namespace dsls::config

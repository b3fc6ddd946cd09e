// allgather-bucket-alignment: since DeepSpeed 0.5.2 the ZeRO stage 1 and 2 optimizer
// starts its NCCL all-gather buffers on a 4-byte boundary (2 fp16 elements) and asserts
// that allgather_bucket_size is a multiple of 2 while deepspeed.initialize builds it
// (deepspeed/runtime/zero/stage_1_and_2.py, stage2.py before 0.6).
#include "analysis/config/rules/rule_support.h"

#include <fmt/format.h>

#include <cmath>

namespace dsls::config {

using namespace rules;

namespace {

// The bucket size the ZeRO-1/2 optimizer gets: zero_optimization.allgather_bucket_size, or
// top-level allgather_size with the legacy "zero_optimization": true.
const json::Member* bucketSize(const RuleContext& ctx) {
  if (ctx.model.zero.legacyBool) return ctx.model.root->find("allgather_size");
  const json::Node* zero = objectOf(ctx.model.zero.section);
  return zero ? zero->find("allgather_bucket_size") : nullptr;
}

// The legacy optimizer that legacy_stage1 selected before 0.5.9 did not assert.
bool legacyStage1(const RuleContext& ctx) {
  const json::Node* zero = objectOf(ctx.model.zero.section);
  const json::Member* legacy = zero ? zero->find("legacy_stage1") : nullptr;
  return legacy && isTrue(legacy->value);
}

}  // namespace

void checkAllgatherBucketAlignment(const RuleContext& ctx, std::vector<Finding>& out) {
  std::optional<int> stage = knownStage(ctx);
  if (!ctx.model.root || (stage != 1 && stage != 2) || versionBelow(ctx, "0.5.2")) return;
  const json::Member* bucket = bucketSize(ctx);
  std::optional<double> n = bucket ? numberOf(bucket->value) : std::nullopt;
  // Negative and fractional sizes are invalid-value's; only a whole odd number is this rule's.
  if (!n || *n < 1 || std::floor(*n) != *n || std::fmod(*n, 2.0) == 0) return;
  if (ctx.model.bf16Optimizer != Bf16OptimizerUse::No || legacyStage1(ctx)) return;

  const std::string even = fmt::format("{:.0f}", *n + 1);
  Finding f = makeFinding(RuleId::AllgatherBucketAlignment,
                          fmt::format("{} is {}, an odd number: the ZeRO stage {} optimizer asserts "
                                      "\"allgather_bucket_size must be a multiple of nccl_start_alignment_factor, 2\" "
                                      "when deepspeed.initialize builds it (DeepSpeed 0.5.2 and later). Use an even "
                                      "number such as {}.",
                                      bucket->key, sourceOf(ctx.text, bucket->value), *stage, even),
                          bucket->value.range);
  if (ctx.model.zero.stage.member)
    f.related.push_back({"", ctx.model.zero.stage.member->keyRange, fmt::format("stage {} is set here", *stage)});
  f.fixes.push_back({fmt::format("Change to {}", even), {replaceValue(*bucket, even)}, true, false});
  out.push_back(std::move(f));
}

}  // namespace dsls::config

#include <doctest/doctest.h>

#include "analysis/catalog/catalog.h"

using namespace dsls::catalog;

namespace {
std::string_view first(std::string_view section, std::string_view key) {
  auto s = suggest(section, key);
  return s.empty() ? std::string_view{} : s.front();
}
}  // namespace

TEST_CASE("suggest finds the key behind a misspelling") {
  CHECK(first("", "gradient_acumulation_steps") == "gradient_accumulation_steps");
  CHECK(first("", "train_micro_batch_size_per_gpus") == "train_micro_batch_size_per_gpu");
  CHECK(first("", "steps_per_prints") == "steps_per_print");
  CHECK(first("zero_optimization", "stage3_param_persitence_threshold") == "stage3_param_persistence_threshold");
  CHECK(first("zero_optimization", "cpu_offload_params") == "cpu_offload_param");
  CHECK(first("fp16", "loss_scale_windows") == "loss_scale_window");
}

TEST_CASE("suggest handles reordered words (corpus 021 writes comm_overlap)") {
  CHECK(first("zero_optimization", "comm_overlap") == "overlap_comm");
  CHECK(first("autotuning", "start_step") == "start_profile_step");
}

TEST_CASE("suggest ignores case and separators") {
  CHECK(first("", "Gradient_Clipping") == "gradient_clipping");
  CHECK(first("zero_optimization", "overlapComm") == "overlap_comm");
  CHECK(first("zero_optimization", "reduce-bucket-size") == "reduce_bucket_size");
}

TEST_CASE("suggest offers alias spellings and stays inside the section") {
  CHECK(first("zero_optimization", "prefetch_bucket_sise") == "prefetch_bucket_size");
  // Not in bf16: fp16-only keys have no close bf16 counterpart.
  CHECK(suggest("bf16", "initial_scale_power").empty());
  CHECK(suggest("bfloat16", "enabeld").front() == "enabled");
}

TEST_CASE("suggest returns nothing for unrelated names and at most five") {
  CHECK(suggest("zero_optimization", "completely_unrelated_thing").empty());
  CHECK(suggest("", "xyzzy").empty());
  CHECK(suggest("no_such_section", "stage").empty());
  CHECK(suggest("zero_optimization", "stage3").size() <= 5);
}

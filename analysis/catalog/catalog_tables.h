// Internal: the per-area tables the registry concatenates. Each group lives in
// its own keys_*.cpp as function-local static arrays, so the table is declared
// once and built on first use (no static-initialisation order issues).
#pragma once

#include <span>
#include <vector>

#include "analysis/catalog/catalog.h"

// The tables use designated initializers and leave most fields at their
// defaults on purpose; g++ 12 still reports every omitted field under -Wextra.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace dsls::catalog::tables {

struct Group {
  std::vector<std::span<const KeyInfo>> keys;  // one table per section, in catalog order
  std::span<const SectionInfo> sections;
};

Group topLevel();     // batch size, logging, communication and other top-level scalars
Group zero();         // zero_optimization and its sub-objects
Group precision();    // fp16, bf16/bfloat16, amp, torch_autocast, data_types
Group optimization(); // optimizer, scheduler
Group monitoring();   // tensorboard, wandb, csv_monitor, comet, trackio, comms_logger, flops_profiler, timers
Group parallelism();  // pipeline, tensor_parallel, expert_parallel, compile, hybrid_engine, activation_checkpointing
Group storage();      // aio, checkpoint, nebula, datastates
Group features();     // autotuning, elasticity, data_efficiency, curriculum, compression, MoQ, sparse attention, PLD

// Short spellings for the tables.
inline constexpr unsigned kNull = Null, kBool = Bool, kInt = Integer, kNum = Number, kStr = String,
                          kObj = Object, kArr = Array;

}  // namespace dsls::catalog::tables

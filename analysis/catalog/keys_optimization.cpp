// optimizer and scheduler (lenient; params are passed to the constructor as-is).
// Sources: deepspeed/runtime/config.py (DEEPSPEED_OPTIMIZERS), engine.py,
// lr_schedules.py; reference sections 4 and 9.1; docs config-json.md.
#include "analysis/catalog/catalog_tables.h"

namespace dsls::catalog::tables {

namespace {
constexpr const char* kOptUrl = "https://www.deepspeed.ai/docs/config-json/#optimizer-parameters";
constexpr const char* kSchedUrl = "https://www.deepspeed.ai/docs/config-json/#scheduler-parameters";

// optimizer
std::span<const KeyInfo> optimizerKeys() {
  static const KeyInfo keys[] = {
      {.path = "optimizer",
       .types = kObj,
       .doc = "Optimizer DeepSpeed builds for the model: a type and constructor params. Leave it out when the training "
              "script passes its own optimizer.",
       .docsUrl = kOptUrl},
      // Native names are matched case-insensitively; any other value is looked up as a torch.optim class
      // (case-sensitive), so the list is open. OneBitAdam, ZeroOneAdam and OneBitLamb were removed on
      // master after 0.19.5 (PR #8490).
      {.path = "optimizer.type",
       .types = kStr,
       .allowed = {"\"Adam\"", "\"AdamW\"", "\"Adagrad\"", "\"Lamb\"", "\"OneBitAdam\"", "\"ZeroOneAdam\"",
                   "\"OneBitLamb\"", "\"MuAdam\"", "\"MuAdamW\"", "\"MuSGD\"", "\"Lion\"", "\"Muon\""},
       .doc = "Optimizer name. DeepSpeed's own optimizers match ignoring case; any other name must be a torch.optim "
              "class (exact case), else DeepSpeed asserts it is not a supported optimizer. The 1-bit optimizers were "
              "removed on DeepSpeed master after 0.19.5.",
       .caseInsensitive = true,
       .openEnum = true},
      {.path = "optimizer.params",
       .types = kObj,
       .doc = "Keyword arguments for the optimizer constructor; names must match its signature."},
      {.path = "optimizer.legacy_fusion",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Use the legacy fused fp16 optimizer path."},
      {.path = "optimizer.params.lr",
       .types = kNum,
       .autoFill = AutoFill::HfTrainer,
       .doc = "Learning rate. HF Trainer fills \"auto\" from learning_rate and rejects a different explicit value."},
      {.path = "optimizer.params.betas",
       .types = kArr,
       .autoFill = AutoFill::HfTrainer,
       .doc = "Adam-style beta coefficients [beta1, beta2]. HF Trainer fills \"auto\" from adam_beta1 and adam_beta2."},
      {.path = "optimizer.params.eps",
       .types = kNum,
       .autoFill = AutoFill::HfTrainer,
       .doc = "Term added to the denominator for numerical stability. HF Trainer fills \"auto\" from adam_epsilon."},
      {.path = "optimizer.params.weight_decay",
       .types = kNum,
       .autoFill = AutoFill::HfTrainer,
       .doc = "Weight decay. HF Trainer fills \"auto\" from weight_decay."},
      {.path = "optimizer.params.torch_adam",
       .types = kBool,
       .defaultValue = "false",
       .doc = "For Adam/AdamW: use torch's implementation instead of DeepSpeed's fused one."},
      {.path = "optimizer.params.adam_w_mode",
       .types = kBool,
       .defaultValue = "true",
       .doc = "For Adam/AdamW: apply decoupled weight decay (AdamW behaviour)."},
      {.path = "optimizer.params.momentum",
       .types = kNum,
       .doc = "Momentum coefficient (SGD-style optimizers and Muon; Muon's documented default is 0.95)."},
      {.path = "optimizer.params.max_grad_norm",
       .types = kNum,
       .deprecatedBy = "gradient_clipping",
       .doc = "Not an optimizer parameter in DeepSpeed: a positive value raises a ValueError when DeepSpeed builds the "
              "optimizer. Use the top-level gradient_clipping."},
      {.path = "optimizer.params.freeze_step",
       .types = kInt,
       .defaultValue = "100000",
       .doc = "1-bit Adam/LAMB: warm-up steps before compressed communication starts.",
       .removedAfter = "0.19.5"},
      {.path = "optimizer.params.cuda_aware",
       .types = kBool,
       .defaultValue = "false",
       .doc = "1-bit optimizers: the MPI library supports CUDA-aware communication.",
       .removedAfter = "0.19.5"},
      {.path = "optimizer.params.comm_backend_name",
       .types = kStr,
       .defaultValue = "\"nccl\"",
       .doc = "1-bit optimizers: communication backend implementation.",
       .removedAfter = "0.19.5"},
  };
  return keys;
}

// scheduler
std::span<const KeyInfo> schedulerKeys() {
  static const KeyInfo keys[] = {
      {.path = "scheduler",
       .types = kObj,
       .doc = "Learning-rate scheduler DeepSpeed builds and steps at every engine.step(): a type and params.",
       .docsUrl = kSchedUrl},
      {.path = "scheduler.type",
       .types = kStr,
       .allowed = {"\"LRRangeTest\"", "\"OneCycle\"", "\"WarmupLR\"", "\"WarmupDecayLR\"", "\"WarmupCosineLR\""},
       .doc = "Scheduler name: one of DeepSpeed's schedulers or a torch.optim.lr_scheduler class; anything else "
              "asserts \"DeepSpeed does not recognize LR scheduler\".",
       .openEnum = true},
      {.path = "scheduler.params",
       .types = kObj,
       .doc = "Keyword arguments for the scheduler constructor."},
      {.path = "scheduler.params.warmup_min_lr",
       .types = kNum,
       .defaultValue = "0",
       .autoFill = AutoFill::HfTrainer,
       .doc = "WarmupLR/WarmupDecayLR: learning rate at the start of warm-up. HF Trainer fills \"auto\" with 0."},
      {.path = "scheduler.params.warmup_max_lr",
       .types = kNum,
       .defaultValue = "0.001",
       .autoFill = AutoFill::HfTrainer,
       .doc = "WarmupLR/WarmupDecayLR: learning rate reached at the end of warm-up. HF Trainer fills \"auto\" from "
              "learning_rate."},
      {.path = "scheduler.params.warmup_num_steps",
       .types = kInt,
       .defaultValue = "1000",
       .autoFill = AutoFill::HfTrainer,
       .doc = "Number of warm-up steps. HF Trainer fills \"auto\" from its warm-up settings."},
      {.path = "scheduler.params.warmup_type",
       .types = kStr,
       .allowed = {"\"log\"", "\"linear\""},
       .defaultValue = "\"log\"",
       .doc = "Shape of the warm-up curve."},
      {.path = "scheduler.params.total_num_steps",
       .types = kInt,
       .autoFill = AutoFill::HfTrainer,
       .doc = "WarmupDecayLR/WarmupCosineLR: total training steps, required. HF Trainer fills \"auto\" with the "
              "computed number of steps."},
      {.path = "scheduler.params.warmup_min_ratio",
       .types = kNum,
       .doc = "WarmupCosineLR: starting learning rate as a fraction of the optimizer's lr."},
      {.path = "scheduler.params.cos_min_ratio",
       .types = kNum,
       .doc = "WarmupCosineLR: final learning rate as a fraction of the optimizer's lr."},
      {.path = "scheduler.params.last_batch_iteration",
       .types = kInt,
       .defaultValue = "-1",
       .doc = "Index of the last batch when resuming; -1 starts the schedule from the beginning."},
  };
  return keys;
}

// scheduler: LRRangeTest and OneCycle params
std::span<const KeyInfo> schedulerCycleKeys() {
  static const KeyInfo keys[] = {
      {.path = "scheduler.params.lr_range_test_min_lr",
       .types = kNum | kArr,
       .defaultValue = "0.001",
       .doc = "LRRangeTest: starting learning rate (one value or one per parameter group)."},
      {.path = "scheduler.params.lr_range_test_step_size",
       .types = kInt,
       .defaultValue = "2000",
       .doc = "LRRangeTest: steps between learning-rate increases."},
      {.path = "scheduler.params.lr_range_test_step_rate",
       .types = kNum,
       .defaultValue = "1.0",
       .doc = "LRRangeTest: scaling rate of the increase."},
      {.path = "scheduler.params.lr_range_test_staircase",
       .types = kBool,
       .defaultValue = "false",
       .doc = "LRRangeTest: increase in steps rather than continuously."},
      {.path = "scheduler.params.cycle_min_lr",
       .types = kNum,
       .doc = "OneCycle: lower learning-rate bound."},
      {.path = "scheduler.params.cycle_max_lr",
       .types = kNum,
       .doc = "OneCycle: upper learning-rate bound."},
      {.path = "scheduler.params.decay_lr_rate",
       .types = kNum,
       .doc = "OneCycle: learning-rate decay rate after the cycle."},
      {.path = "scheduler.params.cycle_first_step_size",
       .types = kInt,
       .doc = "OneCycle: steps in the first half of the cycle."},
      {.path = "scheduler.params.cycle_second_step_size",
       .types = kInt | kNull,
       .doc = "OneCycle: steps in the second half of the cycle; defaults to the first half."},
      {.path = "scheduler.params.cycle_first_stair_count",
       .types = kInt,
       .doc = "OneCycle: stairs in the first half (0 = continuous)."},
      {.path = "scheduler.params.cycle_second_stair_count",
       .types = kInt | kNull,
       .doc = "OneCycle: stairs in the second half."},
      {.path = "scheduler.params.decay_step_size",
       .types = kInt,
       .doc = "OneCycle: steps between decay applications after the cycle."},
      {.path = "scheduler.params.cycle_momentum",
       .types = kBool,
       .doc = "OneCycle: also cycle momentum."},
      {.path = "scheduler.params.cycle_min_mom",
       .types = kNum,
       .doc = "OneCycle: lower momentum bound."},
      {.path = "scheduler.params.cycle_max_mom",
       .types = kNum,
       .doc = "OneCycle: upper momentum bound."},
      {.path = "scheduler.params.decay_mom_rate",
       .types = kNum,
       .doc = "OneCycle: momentum decay rate after the cycle."},
  };
  return keys;
}

}  // namespace

Group optimization() {
  static const SectionInfo sections[] = {
      {.path = "optimizer", .strict = false, .doc = "Optimizer selection.", .docsUrl = kOptUrl},
      {.path = "optimizer.params",
       .strict = false,
       .openKeys = true,
       .doc = "Optimizer constructor arguments; any name the chosen optimizer accepts is valid.",
       .docsUrl = kOptUrl},
      {.path = "scheduler", .strict = false, .doc = "Learning-rate scheduler selection.", .docsUrl = kSchedUrl},
      {.path = "scheduler.params",
       .strict = false,
       .openKeys = true,
       .doc = "Scheduler constructor arguments; any name the chosen scheduler accepts is valid.",
       .docsUrl = kSchedUrl},
  };
  return {{optimizerKeys(), schedulerKeys(), schedulerCycleKeys()}, sections};
}

}  // namespace dsls::catalog::tables

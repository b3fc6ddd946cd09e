// Multi-line configuration errors: pydantic v1 and v2 texts, HF mismatch lists,
// and the checkpoint/ZeRO fingerprints from the catalogue.
#include "log_test_support.h"

using namespace dsls::logs;
using namespace dsls::logs::testing;

TEST_CASE("pydantic v1: unknown ZeRO key on the line before its error") {
  const LogReport r = analyzeText(
      "[rank0]: Traceback (most recent call last):\n"
      "[rank0]:   File \"/opt/deepspeed/runtime/zero/config.py\", line 90, in get_zero_config\n"
      "[rank0]:     return DeepSpeedZeroConfig(**zero_config_dict)\n"
      "[rank0]: pydantic.error_wrappers.ValidationError: 1 validation error for DeepSpeedZeroConfig\n"
      "[rank0]: zero_hpz_partition_size\n"
      "[rank0]:   extra fields not permitted (type=value_error.extra)\n");
  INFO(findingIds(r));
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "config-extra-key");
  CHECK_FALSE(root->initiatingRank);
  CHECK(root->configKeys == std::vector<std::string>{"zero_optimization.zero_hpz_partition_size"});
  CHECK(root->mechanism.find("pydantic-v1 wording") != std::string::npos);
  CHECK(findingById(r, "python-exception") == nullptr);
}

TEST_CASE("pydantic v1 collapsed onto one line") {
  const LogReport r = analyzeText(
      "ValidationError: 3 validation errors for DeepSpeedZeroConfig\n"
      "zero_hpz_partition_size  extra fields not permitted (type=value_error.extra)\n");
  const LogFinding* f = findingById(r, "config-extra-key");
  REQUIRE(f);
  CHECK(f->configKeys == std::vector<std::string>{"zero_optimization.zero_hpz_partition_size"});
}

TEST_CASE("pydantic v2: several extra keys in bf16") {
  const LogReport r = analyzeText(
      "pydantic_core._pydantic_core.ValidationError: 2 validation errors for DeepSpeedBF16Config\n"
      "loss_scale\n"
      "  Extra inputs are not permitted [type=extra_forbidden, input_value=0, input_type=int]\n"
      "    For further information visit https://errors.pydantic.dev/2.5/v/extra_forbidden\n"
      "hysteresis\n"
      "  Extra inputs are not permitted [type=extra_forbidden, input_value=2, input_type=int]\n"
      "    For further information visit https://errors.pydantic.dev/2.5/v/extra_forbidden\n");
  const LogFinding* f = findingById(r, "config-extra-key");
  REQUIRE(f);
  CHECK(f->initiating);
  CHECK(f->configKeys == std::vector<std::string>{"bf16.loss_scale", "bf16.hysteresis"});
  CHECK(f->evidenceTotal == 2);
  CHECK(f->mechanism.find("pydantic-v2 wording") != std::string::npos);
  CHECK(findingById(r, "config-validation-error") == nullptr);
}

TEST_CASE("pydantic v2: a wrong value type") {
  const LogReport r = analyzeText(
      "pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedZeroConfig\n"
      "reduce_bucket_size\n"
      "  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, "
      "input_value='big', input_type=str]\n");
  const LogFinding* f = findingById(r, "config-validation-error");
  REQUIRE(f);
  CHECK(f->configKeys == std::vector<std::string>{"zero_optimization.reduce_bucket_size"});
}

TEST_CASE("HF TrainingArguments mismatch lists the keys") {
  const LogReport r = analyzeText(
      "ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments values:\n"
      "- ds train_micro_batch_size_per_gpu=1 vs hf per_device_train_batch_size=8\n"
      "- ds gradient_accumulation_steps=4 vs hf gradient_accumulation_steps=1\n"
      "The easiest method is to set these DeepSpeed config values to 'auto'.\n");
  const LogFinding* f = findingById(r, "hf-config-mismatch");
  REQUIRE(f);
  CHECK(f->initiating);
  CHECK(f->configKeys == std::vector<std::string>{"train_micro_batch_size_per_gpu", "gradient_accumulation_steps"});
}

TEST_CASE("checkpoint shapes: empty tensors saved from ZeRO-3") {
  const LogReport r = analyzeText(
      "RuntimeError: Error(s) in loading state_dict for OPTForCausalLM:\n"
      "\tsize mismatch for model.decoder.layers.25.fc1.weight: copying a param with shape torch.Size([0]) from "
      "checkpoint, the shape in current model is torch.Size([10240, 2560]).\n");
  const LogFinding* f = findingById(r, "checkpoint-size-mismatch");
  REQUIRE(f);
  CHECK(f->mechanism.find("saved from a partitioned ZeRO-3 model") != std::string::npos);
  CHECK(f->configKeys == std::vector<std::string>{"zero_optimization.stage3_gather_16bit_weights_on_model_save"});
}

TEST_CASE("op build failure comes before its secondary AttributeError") {
  const LogReport r = analyzeText(
      "RuntimeError: Error building extension 'cpu_adam'\n"
      "Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7f>\n"
      "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'\n");
  const LogFinding* f = r.initiatingFinding();
  REQUIRE(f);
  CHECK(f->id == "op-build-failure");
  CHECK(f->evidence.front().line == 1);
  CHECK(f->evidenceTotal == 2);
}

TEST_CASE("max_grad_norm warning is advisory, the ValueError is the failure") {
  LogReport r = analyzeText(
      "[2024-01-01 00:00:00,000] [WARNING] [config.py:1000:_do_warning_check] DeepSpeedConfig: max_grad_norm (1.0) "
      "is not supported as an optimizer parameter, please switch to using the deepspeed parameter "
      "'gradient_clipping' see: https://www.deepspeed.ai/docs/config-json/#gradient-clipping for more details\n");
  const LogFinding* f = findingById(r, "max-grad-norm-in-optimizer");
  REQUIRE(f);
  CHECK(f->severity == dsls::analysis::Severity::Warning);
  CHECK_FALSE(f->initiating);
  r = analyzeText(
      "ValueError: 'max_grad_norm' is not supported as an optimizer parameter, please switch to using the deepspeed "
      "parameter 'gradient_clipping'\n");
  f = findingById(r, "max-grad-norm-in-optimizer");
  REQUIRE(f);
  CHECK(f->initiating);
  CHECK(f->severity == dsls::analysis::Severity::Error);
}

TEST_CASE("NaN under the log's own zero_config with overlap_comm, version-aware") {
  const std::string head =
      "[2024-01-01 00:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed info: version=0.14.0, "
      "git-hash=unknown, git-branch=unknown\n"
      "[2024-01-01 00:00:01,000] [INFO] [config.py:1003:print]   zero_config .................. stage=2 "
      "contiguous_gradients=True reduce_scatter=True overlap_comm=True\n";
  const std::string metrics =
      "{'loss': 1.0, 'grad_norm': nan, 'learning_rate': 1e-05, 'epoch': 0.1}\n"
      "{'loss': 0.0, 'grad_norm': 1.4142135623730951, 'learning_rate': 1e-05, 'epoch': 0.2}\n"
      "{'loss': 0.0, 'grad_norm': 1.4142135623730951, 'learning_rate': 1e-05, 'epoch': 0.3}\n"
      "{'loss': 0.0, 'grad_norm': 1.4142135623730951, 'learning_rate': 1e-05, 'epoch': 0.4}\n";
  const LogReport r = analyzeText(head + metrics);
  INFO(findingIds(r));
  const LogFinding* nan = findingById(r, "nan-grad-norm");
  REQUIRE(nan);
  CHECK(nan->ruleCodes == std::vector<std::string>{"overlap-comm-race"});
  CHECK(nan->mechanism.find("DeepSpeed 0.14.0 predates") != std::string::npos);
  CHECK(nan->mechanism.find("missing wait") != std::string::npos);
  CHECK(nan->mechanism.find("DeepSpeed's config dump in this log") != std::string::npos);
  const LogFinding* stuck = findingById(r, "grad-norm-stuck");
  REQUIRE(stuck);
  CHECK(stuck->evidenceTotal == 3);
  CHECK(stuck->ruleCodes == std::vector<std::string>{"overlap-comm-race"});
  const LogFinding* zero = findingById(r, "loss-stuck-zero");
  REQUIRE(zero);
  CHECK(zero->evidenceTotal == 3);

  // The log says overlap_comm=False: the race is ruled out even if the caller believed otherwise.
  AnalyzerOptions options;
  options.overlapComm = true;
  std::string off = head;
  off.replace(off.find("overlap_comm=True"), 17, "overlap_comm=False");
  const LogReport r2 = analyzeText(off + metrics, options);
  const LogFinding* nan2 = findingById(r2, "nan-grad-norm");
  REQUIRE(nan2);
  CHECK(nan2->ruleCodes.empty());
  CHECK(nan2->mechanism.find("rules out the overlap_comm races") != std::string::npos);

  // Pipeline parallelism turns overlap_comm off, whatever the config dump says.
  const LogReport piped =
      analyzeText(head + "Pipeline parallelism does not support overlapped communication, will be disabled.\n" + metrics);
  const LogFinding* nanPiped = findingById(piped, "nan-grad-norm");
  REQUIRE(nanPiped);
  CHECK(nanPiped->ruleCodes.empty());
  CHECK(nanPiped->mechanism.find("Pipeline parallelism turned overlap_comm off") != std::string::npos);

  // A fixed DeepSpeed keeps the key but drops the race rule.
  std::string fixed = head;
  fixed.replace(fixed.find("0.14.0"), 6, "0.19.4");
  const LogReport r3 = analyzeText(fixed + metrics);
  const LogFinding* nan3 = findingById(r3, "nan-grad-norm");
  REQUIRE(nan3);
  CHECK(nan3->ruleCodes.empty());
  CHECK(nan3->mechanism.find("contains every known fix") != std::string::npos);
}

TEST_CASE("ZeRO-3 with overlap_comm: the race rule needs PyTorch 2.10 and DeepSpeed < 0.18.8") {
  AnalyzerOptions options;
  options.zeroStage = 3;
  options.overlapComm = true;
  options.deepspeedVersion = "0.18.2";
  options.torchVersion = "2.10.0+cu128";
  const std::string metrics = "{'loss': nan, 'grad_norm': nan, 'epoch': 0.1}\n";
  LogReport r = analyzeText(metrics, options);
  const LogFinding* nan = findingById(r, "nan-grad-norm");
  REQUIRE(nan);
  CHECK(nan->ruleCodes == std::vector<std::string>{"overlap-comm-race"});
  CHECK(nan->mechanism.find("0.18.8") != std::string::npos);
  options.torchVersion = "2.4.0";
  r = analyzeText(metrics, options);
  nan = findingById(r, "nan-grad-norm");
  REQUIRE(nan);
  CHECK(nan->ruleCodes.empty());
  REQUIRE(findingById(r, "nan-loss"));
}

TEST_CASE("fp16: a NaN grad norm on a skipped overflow step is context, not the problem") {
  const LogReport r = analyzeText(
      "[2024-01-01 00:00:01,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping "
      "step. Attempted loss scale: 65536, reducing to 32768\n"
      "{'loss': 2.1, 'grad_norm': nan, 'learning_rate': 1e-05, 'epoch': 0.01}\n"
      "{'loss': 2.0, 'grad_norm': 0.9, 'learning_rate': 1e-05, 'epoch': 0.02}\n");
  INFO(findingIds(r));
  CHECK(r.initiatingFinding() == nullptr);
  const LogFinding* nan = findingById(r, "nan-grad-norm");
  REQUIRE(nan);
  CHECK(nan->severity == dsls::analysis::Severity::Information);
  CHECK(nan->mechanism.find("skipped") != std::string::npos);
}

TEST_CASE("port in use names the rank that printed it") {
  const LogReport r = analyzeText(
      "[rank0]: RuntimeError: The server socket has failed to listen on any local network address. The server "
      "socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).\n");
  const LogFinding* root = r.initiatingFinding();
  REQUIRE(root);
  CHECK(root->id == "port-in-use");
  CHECK(root->initiatingRank == 0);
}

TEST_CASE("fp16: overflow skips say how far the scale went down; a skip at the floor makes them a warning") {
  const std::string overflow =
      "[2024-01-01 00:00:01,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping "
      "step. Attempted loss scale: ";
  const LogReport early = analyzeText(overflow + "65536, reducing to 32768\n" + overflow + "32768, reducing to 16384\n");
  const LogFinding* skips = findingById(early, "fp16-overflow-skips");
  REQUIRE(skips);
  CHECK(skips->severity == dsls::analysis::Severity::Information);
  CHECK(skips->mechanism.find("2 overflow lines; the scale went down to 16384. A few early skips are normal.") !=
        std::string::npos);
  CHECK(findingById(early, "fp16-loss-scale-floor") == nullptr);

  const LogReport floor = analyzeText(overflow + "65536, reducing to 32768\n" + overflow + "2, reducing to 1\n");
  INFO(findingIds(floor));
  skips = findingById(floor, "fp16-overflow-skips");
  REQUIRE(skips);
  CHECK(skips->severity == dsls::analysis::Severity::Warning);
  CHECK(skips->mechanism.find("2 overflow lines; the scale went down to 1. That is more than start-up calibration.") !=
        std::string::npos);
  REQUIRE(findingById(floor, "fp16-loss-scale-floor"));
}

TEST_CASE("ZeRO: a detail naming a line's values comes from the finding's first line") {
  const LogReport r = analyzeText(
      "[rank0]: AssertionError: {'id': 853, 'status': 'NOT_AVAILABLE', 'numel': 0, 'ds_numel': 0, 'shape': (0,)}\n"
      "[rank1]: AssertionError: {'id': 854, 'status': 'INFLIGHT', 'numel': 0, 'ds_numel': 0, 'shape': (0,)}\n"
      "[rank0]: AssertionError: The parameter 388 has already been reduced. Gradient computed twice for this partition.\n"
      "[rank1]: AssertionError: The parameter 389 has already been reduced. Gradient computed twice for this partition.\n");
  INFO(findingIds(r));
  const LogFinding* assertion = findingById(r, "zero3-param-state-assert");
  REQUIRE(assertion);
  CHECK(assertion->mechanism.find("Parameter id 853 had status NOT_AVAILABLE.") != std::string::npos);
  CHECK(assertion->mechanism.find("854") == std::string::npos);
  const LogFinding* twice = findingById(r, "zero-grad-reduced-twice");
  REQUIRE(twice);
  CHECK(twice->mechanism.find("Parameter 388 was reduced twice.") != std::string::npos);
  CHECK(twice->mechanism.find("389") == std::string::npos);
}

TEST_CASE("a deprecated config key is the finding's config key, with the key to use instead") {
  const LogReport r = analyzeText("Config parameter cpu_offload is deprecated use offload_optimizer instead\n");
  INFO(findingIds(r));
  const LogFinding* f = findingById(r, "config-deprecated-key");
  REQUIRE(f);
  CHECK(f->configKeys == std::vector<std::string>{"cpu_offload"});
  CHECK(f->mechanism.find("`cpu_offload` is deprecated; use `offload_optimizer`.") != std::string::npos);
}

TEST_CASE("the launcher's world info gives the world size; the global rank mapping names a host's ranks") {
  const LogReport local = analyzeText("WORLD INFO DICT: {'worker-0': [0, 1, 2, 3], 'worker-1': [0, 1, 2, 3]}\n");
  CHECK(local.worldSize == 8);
  // A failure line without a rank prefix: the host that printed it, and the ranks it runs.
  const LogReport global = analyzeText(
      "global_rank_mapping={'worker-0': [0, 1], 'worker-1': [2, 3]}\n"
      "worker-1: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n");
  INFO(findingIds(global));
  CHECK_FALSE(global.worldSize);
  const LogFinding* root = global.initiatingFinding();
  REQUIRE(root);
  CHECK(root->rankReason.find("Host worker-1 runs ranks 2") != std::string::npos);
}

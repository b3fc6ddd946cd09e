// batch-size-mismatch: DeepSpeed requires train_batch_size = micro batch x accumulation
// steps x data-parallel size. It derives a missing key by integer division and then
// asserts the product, so a non-divisible combination fails at start-up (or truncates
// a derived key to 0). Without a world size only divisibility can be checked.
#include "analysis/config/rules/rule_support.h"
#include "analysis/config/setting_names.h"

#include <fmt/format.h>

#include <cmath>
#include <functional>

namespace dsls::config {

using namespace rules;

namespace {

struct BatchKey {
  const json::Member* member = nullptr;
  std::optional<long long> value;  // a positive whole number as written
  bool automatic = false;          // "auto" (or not a usable number): leave it alone
  bool present() const { return member != nullptr; }
};

BatchKey read(const json::Node& root, std::string_view name) {
  BatchKey k;
  k.member = root.find(name);
  if (!k.member) return k;
  const json::Node& v = k.member->value;
  if (v.kind == json::Kind::Number && v.isInteger && v.number >= 1 && v.number < 1e15)
    k.value = static_cast<long long>(v.number);
  else
    k.automatic = true;  // "auto", a string, 0 or a fraction: other rules speak about those
  return k;
}

// Positive integer settings that shrink the data-parallel group, when present.
long long divisorFrom(const json::Node& root, std::string_view path, std::string& note, std::string_view name) {
  const json::Member* m = memberAt(&root, path);
  const auto n = m ? m->value.intValue() : std::nullopt;
  if (!n || *n <= 1) return 1;
  note += fmt::format(" / {} {}", name, *n);
  return *n;
}

void relate(Finding& f, const BatchKey& k, std::string_view name) {
  if (k.member && k.member->keyRange != f.range && k.member->value.range != f.range)
    f.related.push_back({"", k.member->keyRange, fmt::format("{} = {}", name, k.value ? std::to_string(*k.value)
                                                                                      : std::string("not a number"))});
}

// The data-parallel size when the world size is known, with `dpNote` saying how it was found.
std::optional<long long> dataParallelSize(const json::Node& root, const analysis::Settings& settings,
                                         std::string& dpNote) {
  std::optional<long long> dp;
  if (settings.worldSize && *settings.worldSize > 0) {
    long long world = *settings.worldSize;
    std::string note;
    long long shrink = divisorFrom(root, "sequence_parallel_size", note, "sequence-parallel size") *
                       divisorFrom(root, "tensor_parallel.autotp_size", note, "tensor-parallel size");
    if (world % shrink == 0) {
      dp = world / shrink;
      dpNote = shrink == 1 ? fmt::format("{} data-parallel ranks ({}; model- and "
                                         "sequence-parallel ranks would not count)",
                                         *dp, worldSizeSource(settings))
                           : fmt::format("{} data-parallel ranks (world size {}{}, assumed)", *dp, world, note);
    }
  }
  return dp;
}

// Reports a finding on `anchor`, with a fix setting train_batch_size when one is known.
using Emit = std::function<void(const BatchKey& anchor, std::string message, std::optional<long long> fixTrain)>;

// All three keys written: their product must be train_batch_size.
void checkProduct(const BatchKey& train, const BatchKey& micro, const BatchKey& gas, std::optional<long long> dp,
                  const std::string& dpNote, const Emit& emit) {
  long long per = *micro.value * *gas.value;
  if (*train.value % per != 0) {
    emit(train,
         fmt::format("train_batch_size {} is not a multiple of train_micro_batch_size_per_gpu x "
                     "gradient_accumulation_steps = {} x {} = {}, so no data-parallel size satisfies DeepSpeed's "
                     "check (train_batch_size = micro x accumulation x ranks).",
                     *train.value, *micro.value, *gas.value, per),
         dp ? std::optional<long long>(per * *dp) : std::nullopt);
  } else if (dp && per * *dp != *train.value) {
    emit(train,
         fmt::format("train_batch_size {} != {} x {} x {} = {} with {}: DeepSpeed asserts \"Check batch related "
                     "parameters\" at start-up.",
                     *train.value, *micro.value, *gas.value, *dp, per * *dp, dpNote),
         per * *dp);
  }
}

// train_batch_size and the micro batch written: DeepSpeed derives the accumulation steps.
void checkDerivedAccumulation(const BatchKey& train, const BatchKey& micro, std::optional<long long> dp,
                              const std::string& dpNote, const Emit& emit) {
  // DeepSpeed derives accumulation steps = train // micro // ranks.
  if (*train.value % *micro.value != 0) {
    emit(train,
         fmt::format("train_batch_size {} is not a multiple of train_micro_batch_size_per_gpu {}: DeepSpeed derives "
                     "gradient_accumulation_steps by integer division and its batch check then fails.",
                     *train.value, *micro.value),
         std::nullopt);
  } else if (dp && *train.value < *micro.value * *dp) {
    emit(train,
         fmt::format("train_batch_size {} is smaller than train_micro_batch_size_per_gpu {} x {}: the derived "
                     "gradient_accumulation_steps is 0 and DeepSpeed stops at start-up.",
                     *train.value, *micro.value, dpNote),
         *micro.value * *dp);
  } else if (dp && *train.value % (*micro.value * *dp) != 0) {
    emit(train,
         fmt::format("train_batch_size {} is not a multiple of train_micro_batch_size_per_gpu {} x {}: the derived "
                     "gradient_accumulation_steps is truncated and DeepSpeed's batch check fails.",
                     *train.value, *micro.value, dpNote),
         std::nullopt);
  }
}

// train_batch_size and the accumulation steps written: DeepSpeed derives the micro batch.
void checkDerivedMicroBatch(const BatchKey& train, const BatchKey& gas, std::optional<long long> dp,
                            const std::string& dpNote, const Emit& emit) {
  // DeepSpeed derives the micro batch = train // ranks // accumulation steps.
  if (*train.value % *gas.value != 0) {
    emit(train,
         fmt::format("train_batch_size {} is not a multiple of gradient_accumulation_steps {}: DeepSpeed derives "
                     "the micro batch by integer division and its batch check then fails.",
                     *train.value, *gas.value),
         std::nullopt);
  } else if (dp && *train.value < *gas.value * *dp) {
    emit(train,
         fmt::format("train_batch_size {} is smaller than gradient_accumulation_steps {} x {}: the derived micro "
                     "batch per GPU is 0 (\"Micro batch size per gpu: 0 has to be greater than 0\").",
                     *train.value, *gas.value, dpNote),
         *gas.value * *dp);
  } else if (dp && *train.value % (*gas.value * *dp) != 0) {
    emit(train,
         fmt::format("train_batch_size {} is not a multiple of gradient_accumulation_steps {} x {}: the derived "
                     "micro batch is truncated and DeepSpeed's batch check fails.",
                     *train.value, *gas.value, dpNote),
         std::nullopt);
  }
}

// Only train_batch_size written: the data-parallel size must divide it.
void checkTrainBatchOnly(const BatchKey& train, long long dp, const std::string& dpNote, const Emit& emit) {
  if (*train.value < dp) {
    emit(train,
         fmt::format("train_batch_size {} is smaller than {}: the derived micro batch per GPU is 0 (\"Micro batch "
                     "size per gpu: 0 has to be greater than 0\").",
                     *train.value, dpNote),
         dp);
  } else if (*train.value % dp != 0) {
    emit(train,
         fmt::format("train_batch_size {} is not a multiple of {}: DeepSpeed derives the micro batch by integer "
                     "division and its batch check then fails.",
                     *train.value, dpNote),
         std::nullopt);
  }
}

}  // namespace

void checkBatchSize(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const json::Node& root = *ctx.model.root;
  if (autotuningEnabled(root)) return;
  if (const json::Node* el = objectOf(root.find("elasticity")); el && el->find("enabled") && isTrue(el->find("enabled")->value))
    return;  // elasticity computes the batch keys itself (see elasticity-batch-keys)

  BatchKey train = read(root, "train_batch_size");
  BatchKey micro = read(root, "train_micro_batch_size_per_gpu");
  BatchKey gas = read(root, "gradient_accumulation_steps");
  if (train.automatic || micro.automatic || gas.automatic) {
    // Only the keys written as numbers can be compared; with "auto" HF fills (and checks) the rest.
    if (!(train.value && micro.value && gas.value)) return;
  }

  // The data-parallel size, when the world size is known.
  std::string dpNote;
  std::optional<long long> dp = dataParallelSize(root, ctx.settings, dpNote);

  auto emit = [&](const BatchKey& anchor, std::string message, std::optional<long long> fixTrain) {
    Finding f = makeFinding(RuleId::BatchSizeMismatch, std::move(message), anchor.member->value.range);
    relate(f, train, "train_batch_size");
    relate(f, micro, "train_micro_batch_size_per_gpu");
    relate(f, gas, "gradient_accumulation_steps");
    if (fixTrain && train.member)
      f.fixes.push_back({fmt::format("Set train_batch_size to {}", *fixTrain),
                         {replaceValue(*train.member, std::to_string(*fixTrain))}, true, false});
    out.push_back(std::move(f));
  };

  if (train.value && micro.value && gas.value) {
    checkProduct(train, micro, gas, dp, dpNote, emit);
    return;
  }
  if (train.value && micro.value) {
    checkDerivedAccumulation(train, micro, dp, dpNote, emit);
    return;
  }
  if (train.value && gas.value) {
    checkDerivedMicroBatch(train, gas, dp, dpNote, emit);
    return;
  }
  if (train.value && !micro.present() && !gas.present() && dp) {
    checkTrainBatchOnly(train, *dp, dpNote, emit);
    return;
  }

  if (!train.present() && !micro.present() && ctx.settings.launcher == analysis::Launcher::DeepSpeed) {
    // HF Trainer and Accelerate may supply batch sizes; plain DeepSpeed needs one of the two keys.
    Finding f = makeFinding(RuleId::BatchSizeMismatch,
                            "Neither train_batch_size nor train_micro_batch_size_per_gpu is set: DeepSpeed stops with "
                            "\"Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided\".",
                            {root.range.begin, root.range.begin + 1});
    if (gas.member) relate(f, gas, "gradient_accumulation_steps");
    out.push_back(std::move(f));
  }
}

}  // namespace dsls::config

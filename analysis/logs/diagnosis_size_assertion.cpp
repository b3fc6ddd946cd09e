// An assertion over the job's sizes alone is deterministic: `assert gradient_accumulation_steps %
// world_size == 0` holds or fails the same way on every rank, since every rank computes it from
// the same launch settings. Any other name in the condition (a rank, a device, a tensor, a
// dataset) may differ between ranks, and then nothing is said; nor once training steps were
// printed.
#include <array>
#include <string_view>

#include <fmt/format.h>

#include "analysis/logs/diagnosis_steps.h"
#include "analysis/logs/text_util.h"

namespace dsls::logs::detail {
namespace {

// The job's sizes, as training scripts and frameworks name them: the same on every rank.
constexpr std::array<std::string_view, 26> kJobSizeNames = {
    "world_size", "num_processes", "num_gpus", "n_gpu", "n_gpus", "ngpus", "nproc_per_node", "num_nodes", "nnodes",
    "num_machines", "data_parallel_size", "dp_size", "dp_world_size", "tensor_model_parallel_size", "tp_size",
    "pipeline_model_parallel_size", "pp_size", "gradient_accumulation_steps", "grad_accum_steps",
    "gradient_accumulation", "micro_batch_size", "train_micro_batch_size_per_gpu", "per_device_train_batch_size",
    "global_batch_size", "train_batch_size", "batch_size",
};

// Python's words that may join sizes in a condition.
constexpr std::array<std::string_view, 5> kConditionKeywords = {"and", "or", "not", "in", "is"};

template <std::size_t N>
bool isOneOf(std::string_view word, const std::array<std::string_view, N>& words) {
  for (std::string_view w : words)
    if (w == word) return true;
  return false;
}

bool isNameStart(char ch) { return text::isWordChar(ch) && !text::isDigit(ch); }

// True when every name in the condition is a job size (a dotted name counts by its last part:
// `args.world_size`), and there is at least one.
bool onlyJobSizes(std::string_view condition) {
  bool anySize = false;
  std::size_t i = 0;
  while (i < condition.size()) {
    const char ch = condition[i];
    if (text::isDigit(ch)) {  // a number, with its fraction or exponent
      while (i < condition.size() && (text::isWordChar(condition[i]) || condition[i] == '.')) ++i;
      continue;
    }
    if (!isNameStart(ch)) {
      if (ch == '\'' || ch == '"' || ch == '[') return false;  // a string, a list or an index
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < condition.size() && (text::isWordChar(condition[end]) || condition[end] == '.')) ++end;
    std::string_view name = condition.substr(i, end - i);
    if (const std::size_t dot = name.find_last_of('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
    std::size_t next = end;
    while (next < condition.size() && condition[next] == ' ') ++next;
    if (next < condition.size() && condition[next] == '(') return false;  // a call: its value is unknown
    if (isOneOf(name, kJobSizeNames)) anySize = true;
    else if (!isOneOf(name, kConditionKeywords)) return false;
    i = end;
  }
  return anySize;
}

}  // namespace

std::optional<RootRank> assertionOnJobSizes(const State& s, const Accumulator& root) {
  if (root.failure != FailureId::PythonException || root.exceptionVaries) return std::nullopt;
  // A training step printed anywhere: the ranks were training, and a size that a data loader or
  // the last batch computes (`batch_size` there) may differ between them.
  if (s.numerics.metricLines > 0) return std::nullopt;
  const std::string_view type = std::string_view(root.key).substr(root.key.find(':') + 1);
  if (type != "AssertionError") return std::nullopt;
  if (root.phase & (tb::kPhaseForward | tb::kPhaseBackward | tb::kPhaseOptimizer)) return std::nullopt;
  std::string_view code = text::trim(root.raisingCode);
  if (!code.starts_with("assert ")) return std::nullopt;
  code.remove_prefix(7);
  if (const std::size_t comma = code.find(','); comma != std::string_view::npos) code = code.substr(0, comma);
  if (!onlyJobSizes(code)) return std::nullopt;
  RootRank out;
  out.scope = RankScope::All;
  out.ranks = root.ranks.ranks;
  out.reason = fmt::format(
      "The assertion that failed, `{}`, checks the job's sizes alone, before any training step: every rank "
      "evaluates it from the same launch settings and fails it alike; no single rank started it (rank "
      "evidence: the asserted condition).",
      text::trim(root.raisingCode));
  return out;
}

}  // namespace dsls::logs::detail

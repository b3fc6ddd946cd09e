// An assertion over the job's sizes alone is deterministic: `assert gradient_accumulation_steps %
// world_size == 0` holds or fails the same way on every rank, since every rank computes it from
// the same launch settings. Any other name in the condition (a rank, a device, a tensor, a
// dataset) may differ between ranks, and then nothing is said; nor once training steps were
// printed. Of a multi-line `assert`, Python quotes the condition's line alone
// (`expert_data_parallel_size % num_distributed_optimizer_instances == 0`): it counts when it
// is a whole comparison.
#include <array>
#include <string_view>

#include <fmt/format.h>

#include "analysis/logs/diagnosis/diagnosis_steps.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

// The job's sizes, as training scripts and frameworks name them: the same on every rank.
constexpr std::array<std::string_view, 31> kJobSizeNames = {
    "world_size", "num_processes", "num_gpus", "n_gpu", "n_gpus", "ngpus", "nproc_per_node", "num_nodes", "nnodes",
    "num_machines", "data_parallel_size", "dp_size", "dp_world_size", "tensor_model_parallel_size", "tp_size",
    "pipeline_model_parallel_size", "pp_size", "context_parallel_size", "expert_model_parallel_size",
    "expert_tensor_parallel_size", "expert_data_parallel_size", "num_distributed_optimizer_instances",
    "gradient_accumulation_steps", "grad_accum_steps",
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

bool isComparison(std::string_view code) {
  for (std::string_view op : {"==", "!=", "<", ">"})
    if (code.find(op) != std::string_view::npos) return true;
  return false;
}

// Brackets closed in the line itself, none closed before it opened.
bool bracketsBalanced(std::string_view code) {
  int depth = 0;
  for (const char ch : code) {
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    else if (ch == ')' || ch == ']' || ch == '}') --depth;
    if (depth < 0) return false;
  }
  return depth == 0;
}

bool isJoinWord(std::string_view word) { return word == "and" || word == "or" || word == "not"; }

std::string_view firstWord(std::string_view code) {
  std::size_t end = 0;
  while (end < code.size() && text::isWordChar(code[end])) ++end;
  return code.substr(0, end);
}

std::string_view lastWord(std::string_view code) {
  std::size_t start = code.size();
  while (start > 0 && text::isWordChar(code[start - 1])) --start;
  return code.substr(start);
}

// The condition an AssertionError's quoted line states. `assert cond, message` on one line; of
// a multi-line `assert (\n    cond\n), message`, Python quotes the condition's own line, with
// no `assert` on it: taken when that line is a whole comparison (brackets closed in it, no
// `and`/`or` or operator going on to another line, no `=` of an assignment), for then it is
// the condition, or the operand of it that failed.
std::optional<std::string_view> assertedCondition(std::string_view code) {
  if (code.starts_with("assert ")) {
    code.remove_prefix(7);
    if (const std::size_t comma = code.find(','); comma != std::string_view::npos) code = code.substr(0, comma);
    return code;
  }
  if (code.empty() || !isComparison(code) || !bracketsBalanced(code)) return std::nullopt;
  if (isJoinWord(firstWord(code)) || isJoinWord(lastWord(code))) return std::nullopt;
  const char last = code.back();
  if (!(text::isWordChar(last) || last == ')' || last == ']')) return std::nullopt;  // an operator, `,` or `\`
  for (std::size_t i = 0; i < code.size(); ++i)
    if (code[i] == '=' && (i == 0 || std::string_view("=!<>").find(code[i - 1]) == std::string_view::npos) &&
        (i + 1 == code.size() || code[i + 1] != '='))
      return std::nullopt;  // an assignment or a keyword argument: no bare condition
  return code;
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
  const std::optional<std::string_view> condition = assertedCondition(text::trim(root.raisingCode));
  if (!condition || !onlyJobSizes(*condition)) return std::nullopt;
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

// Whether a text is a training log: decided by content, on its head only. A log is recognised
// by a rank/launcher/logger prefix on a line, a line only trainers print (Megatron's iteration
// lines, a rich log line from a Python caller), or by anything the log analysis itself finds in
// the head (a fingerprint, a multi-line failure, an exit summary); a plain Python traceback
// counts only when its frames run through a training stack, the code it quotes handles the
// distributed job (world size, ranks, torch.distributed), or several processes' tracebacks
// are interleaved in it.
#include <re2/re2.h>

#include <array>
#include <memory>
#include <vector>

#include "analysis/logs/analyze.h"
#include "analysis/logs/fingerprints/failure_catalog.h"
#include "analysis/logs/fingerprints/fingerprints.h"
#include "analysis/logs/lines/line_prefix.h"
#include "analysis/logs/lines/traceback.h"

namespace dsls::logs {
namespace {

constexpr std::size_t kHeadBytes = std::size_t{64} << 10;

// Library folders a training job's traceback frames run through.
constexpr std::array kTrainingStackFolders = {
    "/torch/",  "/deepspeed/", "/transformers/", "/accelerate/", "/megatron/", "/peft/",
    "/trl/",    "/ray/",       "/vllm/",         "/verl/",       "/openrlhf/", "/llamafactory/",
    "/apex/",   "/lightning/", "/pytorch_lightning/",
};

// Lines only a training job prints, matched on the message (prefixes removed).
struct TrainingLine {
  const char* name;
  const char* pattern;
};
constexpr std::array kTrainingLines = {
    // Megatron's progress line: " iteration       10/ 1000000 | consumed samples: ..."
    TrainingLine{"megatron-iteration", R"(^\s*iteration\s+\d+/\s*\d+ \|)"},
};

// Names in the code a traceback quotes that only a distributed training job uses: the
// failing statement handles the job's sizes or ranks (`assert batch % world_size == 0`).
constexpr const char* kDistributedCodePattern =
    R"((?:^|[^\w.])(?:world_size|local_rank|global_rank|gradient_accumulation_steps|torch\.distributed|)"
    R"(dist\.(?:get_rank|get_world_size|barrier|all_reduce|init_process_group)|deepspeed\.initialize|)"
    R"(accelerator\.(?:prepare|backward|gather))\b)";

struct DetectionPatterns {
  std::vector<std::unique_ptr<re2::RE2>> trainingLines;
  re2::RE2 distributedCode{kDistributedCodePattern};
  unsigned richLogBit = 0;

  DetectionPatterns() {
    for (const TrainingLine& t : kTrainingLines) trainingLines.push_back(std::make_unique<re2::RE2>(t.pattern));
    const auto& families = prefixFamilies();
    for (std::size_t i = 0; i < families.size(); ++i)
      if (families[i].name == "rich-log") richLogBit = 1u << i;
  }
  static const DetectionPatterns& shared() {
    static const DetectionPatterns patterns;
    return patterns;
  }
};

bool isTrainingLine(std::string_view message) {
  for (const auto& re : DetectionPatterns::shared().trainingLines)
    if (re2::RE2::PartialMatch(message, *re)) return true;
  return false;
}

// A rich log line from a Python caller: the rich-log prefix, and the caller that rich
// right-aligns at the end of the line, which the prefix parser took as the line's source.
bool isRichLogLine(const PrefixView& pv) {
  return (pv.familyMask & DetectionPatterns::shared().richLogBit) != 0 && pv.source.find(".py:") != std::string_view::npos;
}

// A prefix only training jobs print: a rank tag, the DeepSpeed logger's "[file.py:line:function]"
// after a timestamp, a c10d glog line, or an NCCL debug line.
bool hasTrainingPrefix(const PrefixView& pv) {
  if (pv.rank || pv.localRank || pv.cudaDevice) return true;
  if (pv.hadLoggerPrefix && !pv.timestamp.empty() && pv.source.find(".py:") != std::string_view::npos) return true;
  return pv.source.find("ProcessGroupNCCL") != std::string_view::npos;
}

// A traceback frame ("File "...", line N" or a rich traceback's path line) in a training library.
bool isTrainingStackFrame(std::string_view message) {
  if (message.find(".py") == std::string_view::npos) return false;
  for (const char* folder : kTrainingStackFolders)
    if (message.find(folder) != std::string_view::npos) return true;
  return false;
}

struct LineSignals {
  bool training = false;  // a line only a training log has
  bool trainingStack = false;  // a traceback through a training library or distributed-job code, or interleaved ones
};

// Tracebacks of several processes printed at once into one stream, without prefixes: a second
// header before any exception line, or frames going on just after the exception line. One
// script's traceback does neither (a chained exception starts with its own header).
class InterleavingWatch {
 public:
  void step(std::string_view message) {
    ++line_;
    if (tb::isTracebackStart(message)) {
      if (open_) interleaved_ = true;
      open_ = true;
    } else if (tb::parseFrame(message)) {
      if (!open_ && ended_ && line_ <= endedAt_ + tb::kInterleavedWindow) interleaved_ = true;
      open_ = true;  // a paste may start inside a traceback
    } else if (open_ && !message.empty() && message[0] != ' ' && tb::parseExceptionLine(message)) {
      open_ = false;
      ended_ = true;
      endedAt_ = line_;
    }
  }
  bool interleaved() const { return interleaved_; }

 private:
  std::size_t line_ = 0, endedAt_ = 0;
  bool open_ = false, ended_ = false, interleaved_ = false;
};

// The code line a traceback quotes under a frame, when it handles the distributed job.
bool isDistributedCode(std::string_view codeLine) {
  return re2::RE2::PartialMatch(codeLine, DetectionPatterns::shared().distributedCode);
}

LineSignals scanLines(std::string_view head) {
  const FingerprintMatcher& matcher = FingerprintMatcher::shared();
  std::vector<FpMatch> matches;
  LineSignals signals;
  bool afterFrame = false;  // the previous line was a traceback frame: this one is its code
  InterleavingWatch interleaving;
  LineSplitter splitter(
      [&](std::string_view line, std::size_t) {
        if (signals.training) return;
        const PrefixView pv = parsePrefixView(line);
        if (hasTrainingPrefix(pv) || matcher.match(pv.message, matches) ||
            pv.message.find("'grad_norm': ") != std::string_view::npos || isTrainingLine(pv.message) ||
            isRichLogLine(pv))
          signals.training = true;
        else if (isTrainingStackFrame(pv.message) || (afterFrame && isDistributedCode(pv.message)))
          signals.trainingStack = true;
        afterFrame = tb::parseFrame(pv.message).has_value();
        interleaving.step(pv.message);
      },
      4096);
  splitter.feed(head);
  splitter.finish();
  if (interleaving.interleaved()) signals.trainingStack = true;  // several processes: a distributed job
  return signals;
}

// A finding of the log analysis on the head: any failure but a bare Python exception, which
// needs a training stack in its frames (a script's traceback alone is no training log).
bool analysisFindsFailure(std::string_view head, bool trainingStack) {
  const LogReport report = analyzeText(head);
  for (const LogFinding& f : report.findings)
    if (f.id != failureCode(FailureId::PythonException) || trainingStack) return true;
  return false;
}

}  // namespace

bool looksLikeTrainingLog(std::string_view head) {
  head = head.substr(0, kHeadBytes);
  const LineSignals signals = scanLines(head);
  if (signals.training) return true;
  return analysisFindsFailure(head, signals.trainingStack);
}

}  // namespace dsls::logs

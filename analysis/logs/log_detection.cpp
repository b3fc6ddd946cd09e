// Whether a text is a training log: decided by content, on its head only. A log is recognised
// by a rank/launcher/logger prefix on a line, or by anything the log analysis itself finds in
// the head (a fingerprint, a multi-line failure, an exit summary); a plain Python traceback
// counts only when its frames run through a training stack.
#include <array>
#include <vector>

#include "analysis/logs/analyze.h"
#include "analysis/logs/failure_catalog.h"
#include "analysis/logs/fingerprints.h"
#include "analysis/logs/line_prefix.h"

namespace dsls::logs {
namespace {

constexpr std::size_t kHeadBytes = std::size_t{64} << 10;

// Library folders a training job's traceback frames run through.
constexpr std::array kTrainingStackFolders = {
    "/torch/",  "/deepspeed/", "/transformers/", "/accelerate/", "/megatron/", "/peft/",
    "/trl/",    "/ray/",       "/vllm/",         "/verl/",       "/openrlhf/", "/llamafactory/",
    "/apex/",   "/lightning/", "/pytorch_lightning/",
};

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
  bool trainingStack = false;
};

LineSignals scanLines(std::string_view head) {
  const FingerprintMatcher& matcher = FingerprintMatcher::shared();
  std::vector<FpMatch> matches;
  LineSignals signals;
  LineSplitter splitter(
      [&](std::string_view line, std::size_t) {
        if (signals.training) return;
        const PrefixView pv = parsePrefixView(line);
        if (hasTrainingPrefix(pv) || matcher.match(pv.message, matches) ||
            pv.message.find("'grad_norm': ") != std::string_view::npos)
          signals.training = true;
        else if (isTrainingStackFrame(pv.message))
          signals.trainingStack = true;
      },
      4096);
  splitter.feed(head);
  splitter.finish();
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

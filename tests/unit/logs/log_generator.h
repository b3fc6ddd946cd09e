// Builds synthetic multi-rank training logs for tests: pdsh host prefixes,
// PyTorch rank prefixes, DeepSpeed logger lines, c10d watchdog lines, with the
// ranks' output interleaved the way concurrent processes write it.
#pragma once

#include <fmt/format.h>

#include <string>
#include <vector>

namespace dsls::logs::testing {

// Seconds since 2024-05-01 00:00:00 -> DeepSpeed logger and glog timestamps.
inline std::string dsTime(int s) { return fmt::format("2024-05-01 {:02}:{:02}:{:02},000", s / 3600, s / 60 % 60, s % 60); }
inline std::string glogTime(int s) { return fmt::format("501 {:02}:{:02}:{:02}.123456", s / 3600, s / 60 % 60, s % 60); }

class LogWriter {
 public:
  void raw(const std::string& line) { text_ += line + "\n"; }
  void host(const std::string& host, const std::string& line) { raw(host.empty() ? line : host + ": " + line); }
  void ds(const std::string& host, int t, const std::string& level, const std::string& source, const std::string& msg) {
    host_line(host, fmt::format("[{}] [{}] [{}] {}", dsTime(t), level, source, msg));
  }
  // A Python traceback from one rank, with the PyTorch [rankN]: prefix (PyTorch 2.3+) or none.
  void traceback(const std::string& host, int rank, bool prefixed, const std::vector<std::string>& frames,
                 const std::string& exception) {
    const std::string p = prefixed ? fmt::format("[rank{}]: ", rank) : "";
    host_line(host, p + "Traceback (most recent call last):");
    for (const auto& f : frames) {
      host_line(host, p + "  " + f);
      host_line(host, p + "    call()");
    }
    host_line(host, p + exception);
  }
  void watchdogTimeout(const std::string& host, int rank, int t, long long seq, const std::string& op,
                       long long timeoutMs, bool rankPrefix = true) {
    host_line(host, fmt::format("{}[E{} ProcessGroupNCCL.cpp:607] [Rank {}] Watchdog caught collective operation "
                                "timeout: WorkNCCL(SeqNum={}, OpType={}, NumelIn=1048576, NumelOut=1048576, "
                                "Timeout(ms)={}) ran for {} milliseconds before timing out.",
                                rankPrefix ? fmt::format("[rank{}]:", rank) : "", glogTime(t), rank, seq, op,
                                timeoutMs, timeoutMs + 37));
    host_line(host, fmt::format("{}[E{} ProcessGroupNCCL.cpp:1664] [PG 0 Rank {}] To avoid data inconsistency, we are "
                                "taking the entire process down.",
                                rankPrefix ? fmt::format("[rank{}]:", rank) : "", glogTime(t), rank));
  }
  void metrics(const std::string& host, double loss, const std::string& gradNorm, double epoch) {
    host_line(host, fmt::format("{{'loss': {}, 'grad_norm': {}, 'learning_rate': 1e-05, 'epoch': {}}}", loss, gradNorm,
                                epoch));
  }
  const std::string& text() const { return text_; }

 private:
  void host_line(const std::string& host, const std::string& line) { this->host(host, line); }
  std::string text_;
};

inline std::vector<std::string> backwardFrames() {
  return {R"(File "/opt/train.py", line 88, in <module>)", R"(File "/opt/deepspeed/runtime/engine.py", line 2020, in backward)",
          R"(File "/opt/torch/_tensor.py", line 522, in backward)",
          R"(File "/opt/torch/autograd/__init__.py", line 266, in backward)"};
}

}  // namespace dsls::logs::testing

#include "analysis/logs/fingerprints/signal_names.h"

#include <array>

namespace dsls::logs {
namespace {

struct SignalRow {
  long long number;
  std::string_view name;
  std::string_view meaning;
  std::string_view description;  // strsignal's text, as srun and MPICH print it
};

// Linux numbering (x86-64 and arm64 agree on these).
constexpr std::array kSignals = {
    SignalRow{1, "SIGHUP", "the terminal or session went away", "Hangup"},
    SignalRow{2, "SIGINT", "interrupted", "Interrupt"},
    SignalRow{4, "SIGILL", "an illegal instruction", "Illegal instruction"},
    SignalRow{6, "SIGABRT", "an abort: a C++ exception or a failed check in native code", "Aborted"},
    SignalRow{7, "SIGBUS", "a bus error, often shared memory (/dev/shm) too small", "Bus error"},
    SignalRow{8, "SIGFPE", "an arithmetic fault", "Floating point exception"},
    SignalRow{9, "SIGKILL", "killed, most often by the kernel's OOM killer", "Killed"},
    SignalRow{11, "SIGSEGV", "a segmentation fault", "Segmentation fault"},
    SignalRow{13, "SIGPIPE", "a broken pipe", "Broken pipe"},
    SignalRow{15, "SIGTERM", "stopped by its launcher or scheduler", "Terminated"},
};

const SignalRow* findSignal(long long signal) {
  for (const SignalRow& row : kSignals)
    if (row.number == signal) return &row;
  return nullptr;
}

}  // namespace

std::string_view signalName(long long signal) {
  const SignalRow* row = findSignal(signal);
  return row ? row->name : std::string_view{};
}

long long signalNumber(std::string_view name) {
  for (const SignalRow& row : kSignals)
    if (row.name == name) return row.number;
  return 0;
}

long long signalOfDescription(std::string_view description) {
  for (const SignalRow& row : kSignals)
    if (row.description == description) return row.number;
  return 0;
}

long long signalOfExitStatus(long long status) {
  if (status < 0) return -status;  // Python's subprocess and torchrun: -N
  if (status > 128 && status <= 128 + 64) return status - 128;  // a shell's 128 + N
  return 0;
}

std::string signalNameInParentheses(long long signal) {
  const SignalRow* row = findSignal(signal);
  if (!row) return {};
  return std::string(" (").append(row->name).append(", ").append(row->meaning).append(")");
}

FailureId failureOfExitStatus(long long status) {
  const long long sig = signalOfExitStatus(status);
  return sig ? signalFailure(sig) : FailureId::WorkerExit;
}

FailureId signalFailure(long long signal) {
  if (signal == 9) return FailureId::HostOom;
  if (signal == 11) return FailureId::Segfault;
  return FailureId::WorkerExit;
}

}  // namespace dsls::logs

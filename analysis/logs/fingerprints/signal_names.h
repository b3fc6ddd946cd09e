// What a POSIX signal that ended a worker says about the failure; one table for every report
// of a signal (torchrun's negative exit codes, MPI launchers, the process's own handler).
#pragma once

#include <string>
#include <string_view>

#include "analysis/logs/fingerprints/failure_catalog.h"

namespace dsls::logs {

// "SIGSEGV", "SIGKILL", ...; empty for a number this table does not name.
std::string_view signalName(long long signal);
// The number of a signal named "SIGKILL", "SIGSEGV", ...; 0 for a name this table does not hold.
long long signalNumber(std::string_view name);
// The number of a signal described as strsignal does ("Killed", "Segmentation fault"); 0 if unknown.
long long signalOfDescription(std::string_view description);
// The signal an exit status stands for: -N (Python's subprocess, torchrun) or 128 + N (a shell);
// 0 for an ordinary exit code.
long long signalOfExitStatus(long long status);
// " (SIGSEGV, a segmentation fault)"-style text for a message; empty when unnamed.
std::string signalNameInParentheses(long long signal);
// The failure an exit status shows: its signal's (signalFailure), else a worker exit.
FailureId failureOfExitStatus(long long status);
// The failure a worker ended by `signal` shows: SIGKILL the host-memory kill, SIGSEGV a
// segmentation fault, any other a worker exit.
FailureId signalFailure(long long signal);

}  // namespace dsls::logs

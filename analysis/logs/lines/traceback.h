// Recognising the parts of a Python traceback in a log message (prefixes
// already removed): the header, "File" frames, and the final exception line.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace dsls::logs::tb {

bool isTracebackStart(std::string_view message);

// Tracebacks of several processes interleaved in one stream: how many lines after one
// process's exception line the others' frames and exception lines may still come.
constexpr std::size_t kInterleavedWindow = 8;

// rich's boxed tracebacks ("╭─ Traceback (most recent call last) ─╮", "│ ... │" frames and
// code, "╰───╯"), followed by the unboxed exception line.
enum class RichBox { None, Top, Body, Bottom };
RichBox richBoxPart(std::string_view message);

struct Frame {
  std::string_view file;
  long long line = 0;
  std::string_view function;
};
// `  File "path", line N, in function`
std::optional<Frame> parseFrame(std::string_view message);
// A frame at column 0 that ends in a function name: the whole line (some reports, a CI bot's
// summary, print a traceback's frames unindented; no code line starts so), or glued after
// another process's code line printed at column 0 (`ret_val = f()  File "x.py", line 4, in g`),
// but not after an exception line, whose message it would be.
bool isUnindentedFrame(std::string_view message);

// Bit set describing which training phase a traceback passed through.
enum Phase : unsigned {
  kPhasePlacement = 1u,  // engine set-up moving or broadcasting the model
  kPhaseOptimizer = 2u,  // optimizer step
  kPhaseBackward = 4u,
  kPhaseForward = 8u,
  kPhaseCheckpoint = 16u,
  kPhaseArguments = 32u,  // the job's arguments and configuration checked, before any collective
  kPhaseOpBuild = 64u,    // an op's JIT build (DeepSpeed's op builder, PyTorch's cpp_extension)
  kPhaseCheckpointLoad = 128u,  // a checkpoint or state_dict being loaded (also kPhaseCheckpoint when DeepSpeed's)
};
unsigned phaseOf(const Frame& frame);
std::string_view phaseName(unsigned phaseBits);  // the most specific phase, or empty

struct ExceptionLine {
  std::string_view type;  // "torch.OutOfMemoryError"
  std::string_view text;  // message after ": ", may be empty
};
// An unindented `Type: message` or bare `Type` line whose type looks like an
// exception class (ends in Error/Exception/Interrupt/Exit/... or is dotted).
std::optional<ExceptionLine> parseExceptionLine(std::string_view message);

enum class ExceptionClass {
  Primary,        // the process failed on its own
  Communication,  // NCCL / backend error
  Collateral,     // a consequence of another failure (peer gone, watchdog, launcher)
};
ExceptionClass classifyException(std::string_view type, std::string_view text);

}  // namespace dsls::logs::tb

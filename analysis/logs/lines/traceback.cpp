#include "analysis/logs/lines/traceback.h"

#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::tb {
namespace {

bool contains(std::string_view s, std::string_view needle) { return s.find(needle) != std::string_view::npos; }

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

bool isTracebackStart(std::string_view message) {
  return text::trimLeft(message).substr(0, 34) == "Traceback (most recent call last):";
}

RichBox richBoxPart(std::string_view message) {
  const std::string_view s = text::trimLeft(message);
  if (s.substr(0, 3) == "\xE2\x95\xAD") return RichBox::Top;     // ╭
  if (s.substr(0, 3) == "\xE2\x94\x82") return RichBox::Body;    // │
  if (s.substr(0, 3) == "\xE2\x95\xB0") return RichBox::Bottom;  // ╰
  return RichBox::None;
}

namespace {

// The name a frame line ends with: a function, `<module>`, `<lambda>`, `<listcomp>`.
bool isFrameFunction(std::string_view name) {
  if (name.empty()) return false;
  const bool bracketed = name.front() == '<' && name.back() == '>';
  if (bracketed) name = name.substr(1, name.size() - 2);
  for (char ch : name)
    if (!text::isWordChar(ch) && ch != '.') return false;
  return !name.empty();
}

}  // namespace

std::optional<Frame> parseFrame(std::string_view message) {
  std::string_view s = text::trimLeft(message);
  if (s.substr(0, 6) != "File \"") {
    // Another process's frame glued to the end of a code line ("    def c(): b()  File "test",
    // line 4, in b"): taken when the whole rest of the line is a frame ending in a function name.
    // Glued to an exception line instead, the line stays that exception's.
    const std::size_t glued = s.find("  File \"");
    if (glued == std::string_view::npos || glued == 0) return std::nullopt;
    if (s.size() == message.size() && parseExceptionLine(s.substr(0, glued))) return std::nullopt;
    auto frame = parseFrame(s.substr(glued + 2));
    if (!frame || !isFrameFunction(frame->function)) return std::nullopt;
    return frame;
  }
  s.remove_prefix(6);
  const std::size_t quote = s.find('"');
  if (quote == std::string_view::npos) return std::nullopt;
  Frame f;
  f.file = s.substr(0, quote);
  s.remove_prefix(quote + 1);
  if (s.substr(0, 7) != ", line ") return std::nullopt;
  std::size_t pos = 7;
  auto n = text::parseIntAt(s, pos);
  if (!n) return std::nullopt;
  f.line = *n;
  s.remove_prefix(pos);
  if (s.substr(0, 5) == ", in ") f.function = text::trimRight(s.substr(5));
  return f;
}

bool isUnindentedFrame(std::string_view message) {
  if (message.empty() || message[0] == ' ' || message[0] == '\t') return false;
  const auto frame = parseFrame(message);  // a glued frame there ends in a function name already
  return frame && isFrameFunction(frame->function);
}

unsigned phaseOf(const Frame& f) {
  const std::string_view fn = f.function;
  unsigned bits = 0;
  if (fn == "_configure_distributed_model" || fn == "_broadcast_model" || contains(fn, "_move_to_device"))
    bits |= kPhasePlacement;
  if (fn == "_take_model_step" || fn == "_optimizer_step" ||
      (fn == "step" && (contains(f.file, "optim") || contains(f.file, "stage_1_and_2") || contains(f.file, "stage3") ||
                        contains(f.file, "engine.py"))))
    bits |= kPhaseOptimizer;
  if (fn == "backward" || fn == "_backward" || contains(f.file, "torch/autograd")) bits |= kPhaseBackward;
  if (fn == "forward" || fn == "_call_impl") bits |= kPhaseForward;
  if (contains(fn, "save_checkpoint") || contains(fn, "load_checkpoint") || contains(fn, "_save_zero_checkpoint"))
    bits |= kPhaseCheckpoint;
  if ((fn == "__post_init__" && (contains(f.file, "training_args") || contains(f.file, "accelerate/utils/dataclasses"))) ||
      fn == "parse_args_into_dataclasses" || fn == "_prepare_deepspeed" || contains(f.file, "deepspeed/runtime/config.py") ||
      contains(f.file, "deepspeed/accelerator/real_accelerator.py"))
    bits |= kPhaseArguments;
  if (contains(fn, "load_checkpoint") || contains(fn, "load_state_dict") || fn == "_load_from_checkpoint")
    bits |= kPhaseCheckpointLoad;
  if (fn == "_run_ninja_build" || fn == "_write_ninja_file_and_build_library" || fn == "assert_no_cuda_mismatch" ||
      (fn == "jit_load" && contains(f.file, "op_builder")))
    bits |= kPhaseOpBuild;
  return bits;
}

std::string_view phaseName(unsigned bits) {
  // Outer phases first: an OOM inside forward during model placement is placement.
  if (bits & kPhaseOpBuild) return "an op's build";
  if ((bits & kPhaseCheckpointLoad) && !(bits & kPhaseArguments)) return "a checkpoint's load";
  if (bits & kPhaseArguments) return "the checks of the job's arguments and configuration";
  if (bits & kPhasePlacement) return "model placement (engine set-up)";
  if (bits & kPhaseCheckpoint) return "checkpoint save/load";
  if (bits & kPhaseOptimizer) return "optimizer step";
  if (bits & kPhaseBackward) return "backward";
  if (bits & kPhaseForward) return "forward";
  return {};
}

std::optional<ExceptionLine> parseExceptionLine(std::string_view message) {
  if (message.empty() || !(text::isAlpha(message[0]) || message[0] == '_')) return std::nullopt;
  std::size_t i = 0;
  while (i < message.size() && i < 200 && (text::isWordChar(message[i]) || message[i] == '.')) ++i;
  const std::string_view type = message.substr(0, i);
  if (i < message.size() && message[i] != ':') return std::nullopt;
  if (type.empty() || type.back() == '.') return std::nullopt;
  const std::size_t lastDot = type.rfind('.');
  const std::string_view last = lastDot == std::string_view::npos ? type : type.substr(lastDot + 1);
  if (last.empty() || !(last[0] >= 'A' && last[0] <= 'Z')) return std::nullopt;
  if (endsWith(last, "Warning")) return std::nullopt;
  const bool looksLikeException = endsWith(last, "Error") || endsWith(last, "Exception") ||
                                  endsWith(last, "Interrupt") || endsWith(last, "Exit") ||
                                  endsWith(last, "Failure") || last == "StopIteration" ||
                                  lastDot != std::string_view::npos;
  if (!looksLikeException) return std::nullopt;
  ExceptionLine ex;
  ex.type = type;
  if (i < message.size()) ex.text = text::trim(message.substr(i + 1));
  return ex;
}

ExceptionClass classifyException(std::string_view type, std::string_view text) {
  if (contains(type, "ChildFailedError") || contains(type, "KeyboardInterrupt") || contains(type, "SystemExit") ||
      contains(type, "SignalException") || contains(type, "DistStoreError") || contains(type, "DistNetworkError"))
    return ExceptionClass::Collateral;
  if (contains(text, "Watchdog") || contains(text, "watchdog") || contains(text, "communicator was aborted") ||
      contains(text, "Connection reset by peer") || contains(text, "Connection closed by peer") ||
      contains(text, "Broken pipe") || contains(text, "ncclRemoteError"))
    return ExceptionClass::Collateral;
  if (contains(type, "DistBackendError") || contains(text, "NCCL") || contains(text, "nccl"))
    return ExceptionClass::Communication;
  return ExceptionClass::Primary;
}

}  // namespace dsls::logs::tb

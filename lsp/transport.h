// Stdio transport: a blocking reader thread that turns bytes into whole message
// bodies, and a writer thread that writes queued frames in order.
// Stdin may be a plain pipe or a file, so the reader does not rely on async I/O.
#pragma once

#include "lsp/logger.h"
#include "protocol/framing.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace dsls::lsp {

class Transport {
 public:
  using MessageHandler = std::function<void(std::string body)>;
  // Called once when input ends or output breaks; `reason` says which.
  using CloseHandler = std::function<void(std::string reason)>;

  Transport(int inputFd, int outputFd, Logger& log) : in_(inputFd), out_(outputFd), log_(log) {}
  ~Transport();

  void start(MessageHandler onMessage, CloseHandler onClose);
  // Thread-safe; frames `body` and queues it behind everything sent before.
  void send(std::string body);
  // Waits (bounded) until queued output is written.
  void flush();
  // Waits until the reader thread has returned, which it does once the input reaches its end.
  // For a process that goes on after the session (an in-process test): until then the reader
  // may still read the input descriptor, so it must not be closed and reused.
  void joinReader();

 private:
  void readLoop();
  void writeLoop();
  void closeOnce(std::string reason);

  int in_, out_;
  Logger& log_;
  MessageHandler onMessage_;
  CloseHandler onClose_;
  std::once_flag closed_;

  std::mutex mutex_;
  std::condition_variable wake_, drained_;
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool stopping_ = false;
  bool broken_ = false;
  std::thread reader_, writer_;
};

}  // namespace dsls::lsp

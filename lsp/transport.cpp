#include "lsp/transport.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <unistd.h>

namespace dsls::lsp {

Transport::~Transport() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (writer_.joinable()) writer_.join();
  // The reader may be blocked in read(); it holds no resources the process needs at exit.
  if (reader_.joinable()) reader_.detach();
}

void Transport::joinReader() {
  if (reader_.joinable()) reader_.join();
}

void Transport::start(MessageHandler onMessage, CloseHandler onClose) {
  onMessage_ = std::move(onMessage);
  onClose_ = std::move(onClose);
  writer_ = std::thread([this] { writeLoop(); });
  reader_ = std::thread([this] { readLoop(); });
}

void Transport::closeOnce(std::string reason) {
  std::call_once(closed_, [&] { onClose_(std::move(reason)); });
}

void Transport::readLoop() {
  protocol::FrameReader frames;
  std::vector<protocol::FrameEvent> events;
  std::string chunk(64 * 1024, '\0');
  for (;;) {
    ssize_t n = ::read(in_, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n < 0) log_.error("reading stdin failed: {}", std::strerror(errno));
      closeOnce(frames.midMessage() ? "stdin closed in the middle of a message" : "stdin closed");
      return;
    }
    events.clear();
    frames.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)), events);
    for (auto& e : events) {
      if (e.kind == protocol::FrameEvent::Kind::Error) log_.error("framing: {}", e.text);
      else onMessage_(std::move(e.text));
    }
  }
}

void Transport::send(std::string body) {
  {
    std::lock_guard lock(mutex_);
    if (broken_) return;
    queue_.push_back(protocol::frame(body));
  }
  wake_.notify_one();
}

void Transport::flush() {
  std::unique_lock lock(mutex_);
  drained_.wait_for(lock, std::chrono::seconds(5), [&] { return broken_ || (queue_.empty() && !writing_); });
}

void Transport::writeLoop() {
  for (;;) {
    std::string frame;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping with nothing left
      frame = std::move(queue_.front());
      queue_.pop_front();
      writing_ = true;
    }
    std::size_t done = 0;
    bool failed = false;
    while (done < frame.size()) {
      ssize_t n = ::write(out_, frame.data() + done, frame.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        log_.error("writing stdout failed: {}", n < 0 ? std::strerror(errno) : "no progress");
        failed = true;
        break;
      }
      done += static_cast<std::size_t>(n);
    }
    {
      std::lock_guard lock(mutex_);
      writing_ = false;
      if (failed) {
        broken_ = true;
        queue_.clear();
      }
    }
    drained_.notify_all();
    if (failed) {
      closeOnce("stdout closed by the client");
      return;
    }
  }
}

}  // namespace dsls::lsp

// A caller's way to stop an analysis whose result it will not use (the document changed
// while it ran). The analysis looks at the flag between steps (between rules, every few
// thousand JSON members), so a superseded analysis of a large file stops early.
#pragma once

#include <atomic>
#include <memory>
#include <stdexcept>

namespace dsls::analysis {

// Thrown out of an analysis that saw its cancellation requested.
struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("the analysis was cancelled") {}
};

class Cancellation {
 public:
  Cancellation() = default;  // never cancelled
  explicit Cancellation(std::shared_ptr<const std::atomic<bool>> flag) : flag_(std::move(flag)) {}

  bool requested() const { return flag_ && flag_->load(std::memory_order_relaxed); }
  void throwIfRequested() const {
    if (requested()) throw Cancelled();
  }

 private:
  std::shared_ptr<const std::atomic<bool>> flag_;
};

}  // namespace dsls::analysis

// Where the server's work runs: two lanes of worker threads. The interactive lane runs what an
// editor waits on (document analyses, requests); the background lane runs long jobs started on
// demand (folder and text diagnoses) on its own bounded threads, so a job of minutes never
// delays a hover. Each lane runs its tasks in the order they were posted.
#pragma once

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <algorithm>
#include <cstddef>
#include <utility>

namespace dsls::lsp {

enum class Lane { Interactive, Background };

class Scheduler {
 public:
  Scheduler(int interactiveThreads, int backgroundThreads)
      : interactive_(threads(interactiveThreads)), background_(threads(backgroundThreads)) {}

  template <typename Task>
  void post(Lane lane, Task&& task) {
    boost::asio::post(lane == Lane::Interactive ? interactive_ : background_, std::forward<Task>(task));
  }
  // Waits for the tasks already posted; long jobs should have been cancelled first.
  void join() {
    interactive_.join();
    background_.join();
  }

 private:
  static std::size_t threads(int n) { return static_cast<std::size_t>(std::max(1, n)); }
  boost::asio::thread_pool interactive_;
  boost::asio::thread_pool background_;
};

}  // namespace dsls::lsp

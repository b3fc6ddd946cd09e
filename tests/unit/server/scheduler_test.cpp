#include "lsp/scheduler.h"

#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <latch>

using dsls::lsp::Lane;
using dsls::lsp::Scheduler;

TEST_CASE("interactive work runs while every background thread is blocked") {
  Scheduler scheduler(1, 1);
  std::latch releaseBackground(1);
  std::latch backgroundStarted(1);
  std::promise<void> interactiveRan;
  scheduler.post(Lane::Background, [&] {
    backgroundStarted.count_down();
    releaseBackground.wait();
  });
  backgroundStarted.wait();
  // Queued behind the blocked job on its own lane: must not run before the release.
  std::atomic<bool> secondBackgroundRan{false};
  scheduler.post(Lane::Background, [&] { secondBackgroundRan = true; });
  scheduler.post(Lane::Interactive, [&] { interactiveRan.set_value(); });
  // The wait bounds a failure (a shared lane would never run it), not a speed.
  auto ran = interactiveRan.get_future().wait_for(std::chrono::seconds(30));
  CHECK(ran == std::future_status::ready);
  CHECK_FALSE(secondBackgroundRan.load());
  releaseBackground.count_down();
  scheduler.join();
  CHECK(secondBackgroundRan.load());
}

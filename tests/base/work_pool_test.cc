// Tests of base/work_pool.h: every iteration runs exactly once, on
// the caller and the helpers, with several callers at once; loops within
// the grain and pools without helpers run on the caller alone.
#include "base/work_pool.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace qipu::base {
namespace {

TEST(WorkPool, EveryIterationRunsOnceWithSeveralCallersAtOnce) {
  WorkPool pool(3);
  EXPECT_EQ(pool.threads(), 3);
  constexpr int kCallers = 4;
  constexpr size_t kN = 5000;
  std::vector<std::vector<std::atomic<int>>> runs(kCallers);
  for (auto& r : runs) r = std::vector<std::atomic<int>>(kN);
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([&, c] {
      for (int round = 0; round < 5; ++round) {
        pool.ParallelFor(kN, [&](size_t i) { runs[c][i].fetch_add(1); });
      }
    });
  }
  for (std::thread& t : callers) t.join();
  for (int c = 0; c < kCallers; ++c) {
    for (size_t i = 0; i < kN; ++i) {
      ASSERT_EQ(runs[c][i].load(), 5) << "caller " << c << " iteration " << i;
    }
  }
}

TEST(WorkPool, ReturnsOnlyAfterEveryIterationFinished) {
  WorkPool pool(2);
  for (int round = 0; round < 20; ++round) {
    std::atomic<int> finished{0};
    pool.ParallelFor(16, [&](size_t) {
      absl::SleepFor(absl::Microseconds(200));
      finished.fetch_add(1);
    });
    ASSERT_EQ(finished.load(), 16) << "round " << round;
  }
}

TEST(WorkPool, HelpersTakePartInLongLoops) {
  WorkPool pool(2);
  std::mutex mu;
  std::set<std::thread::id> seen;
  pool.ParallelFor(200, [&](size_t) {
    absl::SleepFor(absl::Milliseconds(1));
    std::lock_guard<std::mutex> lock(mu);
    seen.insert(std::this_thread::get_id());
  });
  EXPECT_GT(seen.size(), 1u);
}

TEST(WorkPool, SmallLoopsAndPoolsWithoutHelpersRunOnTheCaller) {
  const std::thread::id me = std::this_thread::get_id();
  WorkPool none(0);
  EXPECT_EQ(none.threads(), 0);
  WorkPool negative(-3);
  EXPECT_EQ(negative.threads(), 0);
  std::vector<std::thread::id> ids(100);
  none.ParallelFor(ids.size(),
                   [&](size_t i) { ids[i] = std::this_thread::get_id(); });
  for (const auto& id : ids) EXPECT_EQ(id, me);
  WorkPool two(2);
  std::vector<std::thread::id> few(4);
  two.ParallelFor(
      few.size(), [&](size_t i) { few[i] = std::this_thread::get_id(); },
      /*grain=*/4);
  for (const auto& id : few) EXPECT_EQ(id, me);
  int calls = 0;
  two.ParallelFor(0, [&](size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(ParallelForEach, EachThreadKeepsItsStateAndEveryIndexRunsOnce) {
  WorkPool pool(3, "qipu-test");
  constexpr size_t kN = 20000;
  std::vector<std::atomic<int>> runs(kN);
  std::atomic<int> states{0};
  struct State {
    std::thread::id owner;
    int iterations = 0;
  };
  std::mutex mu;
  std::vector<int> per_state;
  ParallelForEach(
      pool, kN,
      [&] {
        states.fetch_add(1);
        return std::make_shared<State>(State{std::this_thread::get_id(), 0});
      },
      [&](std::shared_ptr<State>& s, size_t i) {
        // A state is only ever used by the thread that made it.
        ASSERT_EQ(s->owner, std::this_thread::get_id());
        ++s->iterations;
        runs[i].fetch_add(1);
      });
  for (size_t i = 0; i < kN; ++i) ASSERT_EQ(runs[i].load(), 1) << i;
  EXPECT_GE(states.load(), 1);
  EXPECT_LE(states.load(), pool.threads() + 1);
  // Fewer indices than threads: never more states than indices.
  states = 0;
  ParallelForEach(
      pool, 2, [&] { return states.fetch_add(1); }, [](int&, size_t) {});
  EXPECT_LE(states.load(), 2);
  states = 0;
  ParallelForEach(
      pool, 0, [&] { return states.fetch_add(1); }, [](int&, size_t) {});
  EXPECT_EQ(states.load(), 0);
}

}  // namespace
}  // namespace qipu::base

// Tests of base/signals.h: SIGINT and SIGTERM sent to the process wait for
// StopSignals::Wait() instead of ending it; a wait times out with 0; the
// background watcher calls back once per signal, counting them.
#include "base/signals.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace qipu::base {
namespace {

TEST(StopSignals, WaitTakesAPendingSignalAndTimesOutWithoutOne) {
  StopSignals signals;
  const absl::Time t0 = absl::Now();
  EXPECT_EQ(signals.Wait(absl::Milliseconds(20)), 0);
  EXPECT_GE(absl::Now() - t0, absl::Milliseconds(15));
  ASSERT_EQ(kill(getpid(), SIGTERM), 0);  // would end the process unblocked
  EXPECT_EQ(signals.Wait(absl::Seconds(30)), SIGTERM);
  ASSERT_EQ(kill(getpid(), SIGINT), 0);
  EXPECT_EQ(signals.Wait(absl::Seconds(30)), SIGINT);
  EXPECT_EQ(signals.Wait(absl::ZeroDuration()), 0);
}

TEST(OnStopSignals, CallsBackOncePerSignalWithItsCount) {
  StopSignals signals;
  absl::Mutex mu;
  std::vector<std::pair<int, int>> seen;
  {
    OnStopSignals watcher(signals, [&](int sig, int count) {
      absl::MutexLock lock(&mu);
      seen.emplace_back(sig, count);
    });
    for (int sig : {SIGTERM, SIGINT}) {
      const size_t before = [&] {
        absl::MutexLock lock(&mu);
        return seen.size();
      }();
      ASSERT_EQ(kill(getpid(), sig), 0);
      absl::MutexLock lock(&mu);
      auto arrived = [&] { return seen.size() > before; };
      ASSERT_TRUE(
          mu.AwaitWithTimeout(absl::Condition(&arrived), absl::Seconds(30)));
    }
  }  // joins the watcher
  absl::MutexLock lock(&mu);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], std::make_pair(SIGTERM, 0));
  EXPECT_EQ(seen[1], std::make_pair(SIGINT, 1));
}

TEST(StopSignals, NamesSignals) {
  EXPECT_STRNE(SignalName(SIGTERM), "");
  EXPECT_STRNE(SignalName(SIGINT), SignalName(SIGTERM));
}

}  // namespace
}  // namespace qipu::base

#include "base/signals.h"

#include <pthread.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace qipu::base {

StopSignals::StopSignals() {
  sigemptyset(&set_);
  sigaddset(&set_, SIGINT);
  sigaddset(&set_, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set_, nullptr);
}

int StopSignals::Wait(absl::Duration timeout) const {
  const timespec ts = absl::ToTimespec(std::max(timeout, absl::ZeroDuration()));
  for (;;) {
    const int sig = sigtimedwait(&set_, nullptr, &ts);
    if (sig > 0) return sig;
    // EAGAIN: the time is up. EINTR: another signal (a profiler's, say)
    // interrupted the wait; waiting the whole timeout again is harmless.
    if (errno != EINTR) return 0;
  }
}

void StopSignals::LetNextOneKill() const {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  pthread_sigmask(SIG_UNBLOCK, &set_, nullptr);
}

OnStopSignals::OnStopSignals(const StopSignals& signals,
                             std::function<void(int, int)> on_signal)
    : thread_([this, &signals, fn = std::move(on_signal)] {
        pthread_setname_np(pthread_self(), "qipu-signals");
        for (int count = 0; !done_.load();) {
          const int sig = signals.Wait(absl::Milliseconds(100));
          if (sig > 0) fn(sig, count++);
        }
      }) {}

OnStopSignals::~OnStopSignals() {
  done_.store(true);
  thread_.join();
}

const char* SignalName(int sig) { return strsignal(sig); }

}  // namespace qipu::base

// StopSignals: SIGINT and SIGTERM taken by the program as requests to stop,
// instead of ending the process. qipu's servers and long commands stop
// cleanly on them (running calls finish, queued games are committed, a
// summary is printed), and a second signal ends the process at once.
//
// Construct it first thing in main(), before any thread starts: it blocks
// the two signals in the calling thread, and every thread started later
// inherits the mask, so that the signals wait for Wait() (or the
// background thread of OnStopSignals) to take them.
#ifndef QIPU_BASE_SIGNALS_H_
#define QIPU_BASE_SIGNALS_H_

#include <signal.h>

#include <atomic>
#include <functional>
#include <thread>

#include "absl/time/time.h"

namespace qipu::base {

// Thread-safe; not copyable. The mask stays in place after destruction.
class StopSignals {
 public:
  // Blocks SIGINT and SIGTERM in the calling thread.
  StopSignals();

  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Waits up to `timeout` for SIGINT or SIGTERM: the signal taken, or 0
  // when none came in time.
  int Wait(absl::Duration timeout) const;

  // After a first stop signal: the next one ends the process at once
  // (default action, not blocked any more in the calling thread).
  void LetNextOneKill() const;

 private:
  sigset_t set_;
};

// Calls on_signal(sig, count) on a background thread for each SIGINT or
// SIGTERM (count 0 for the first) until destroyed. Requires a StopSignals
// constructed before (the signals must be blocked). Thread-safe.
class OnStopSignals {
 public:
  OnStopSignals(const StopSignals& signals,
                std::function<void(int sig, int count)> on_signal);
  // Stops watching (within ~100 ms) and joins the thread.
  ~OnStopSignals();

  OnStopSignals(const OnStopSignals&) = delete;
  OnStopSignals& operator=(const OnStopSignals&) = delete;

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// "Interrupt", "Terminated", ...: the signal's name for messages.
const char* SignalName(int sig);

}  // namespace qipu::base

#endif  // QIPU_BASE_SIGNALS_H_

// Backoff: capped exponential delays with jitter, for retrying calls to a
// coordinator that is down or overloaded. Attempt n (0-based) waits a delay
// drawn uniformly from [(1 - jitter) * d, d] with
// d = min(max, initial * multiplier^n): the cap keeps a long outage from
// growing the delay without bound, and the jitter keeps a fleet of workers
// that lost the coordinator at the same moment from reconnecting in
// lockstep. Reset() after a success starts again from `initial`.
#ifndef QIPU_WORKER_BACKOFF_H_
#define QIPU_WORKER_BACKOFF_H_

#include <algorithm>
#include <cstdint>

#include "absl/time/time.h"
#include "rules/playout.h"

namespace qipu::worker {

struct BackoffOptions {
  // Upper bound of the first delay. > 0.
  absl::Duration initial = absl::Milliseconds(100);
  // Largest upper bound of any delay. >= initial.
  absl::Duration max = absl::Seconds(30);
  // Growth of the upper bound per attempt. >= 1.
  double multiplier = 2.0;
  // Fraction of each delay that is random, in [0, 1]; 0 gives the exact
  // bound every time (tests), 1 gives "full jitter".
  double jitter = 0.5;
};

// Not thread-safe: one Backoff per retry loop. Copyable.
class Backoff {
 public:
  // `seed` drives the jitter; any value (e.g. derived from the worker name)
  // is fine. The options are taken as given; out-of-range values are
  // clamped (initial >= 1 ms, max >= initial, multiplier >= 1, jitter in
  // [0, 1]).
  explicit Backoff(const BackoffOptions& options, uint64_t seed = 1)
      : options_(Clamp(options)), rng_(seed) {}

  // The delay to wait before the next attempt; each call counts one
  // attempt and grows the bound until it reaches the cap.
  absl::Duration Next() {
    const absl::Duration bound = Bound();
    ++attempts_;
    if (options_.jitter <= 0) return bound;
    // Uniform in [0, 1) with 53 random bits.
    const double u = static_cast<double>(rng_.Next() >> 11) * 0x1.0p-53;
    return bound * (1.0 - options_.jitter * u);
  }

  // Back to the first delay (call after a successful attempt).
  void Reset() { attempts_ = 0; }

  // Attempts counted since construction or the last Reset().
  int attempts() const { return attempts_; }

  // The upper bound of the delay that Next() would return now.
  absl::Duration Bound() const {
    absl::Duration d = options_.initial;
    for (int i = 0; i < attempts_ && d < options_.max; ++i) {
      d = d * options_.multiplier;
    }
    return std::min(d, options_.max);
  }

 private:
  static BackoffOptions Clamp(BackoffOptions o) {
    o.initial = std::max(o.initial, absl::Milliseconds(1));
    o.max = std::max(o.max, o.initial);
    o.multiplier = std::max(o.multiplier, 1.0);
    o.jitter = std::clamp(o.jitter, 0.0, 1.0);
    return o;
  }

  BackoffOptions options_;
  rules::Rng rng_;
  // Attempts since the last Reset(); the bound is initial * mult^attempts_.
  int attempts_ = 0;
};

}  // namespace qipu::worker

#endif  // QIPU_WORKER_BACKOFF_H_

// WorkPool: a few threads that help callers run the iterations of a loop
// (ParallelFor), and ParallelForEach(), a loop whose threads each keep
// their own state (a rules::Game, a stub), on such a pool. It is qipu's
// one thread pool: the coordinator validates the games of an upload
// message on it (an upload stream is read by one gRPC thread, and
// replaying each game there made that thread the coordinator's
// bottleneck), and the qipu tool plays its offline and benchmark games on
// it.
//
// The caller runs iterations too, so ParallelFor() always makes progress,
// even when every pool thread is busy with other callers' loops (or the
// pool has no threads at all). Several loops may run at once; the pool's
// threads take iterations of the oldest first.
#ifndef QIPU_BASE_WORK_POOL_H_
#define QIPU_BASE_WORK_POOL_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/synchronization/mutex.h"

namespace qipu::base {

// Thread-safe: ParallelFor() may be called from any number of threads at
// once. Not copyable or movable.
class WorkPool {
 public:
  // Starts `threads` helper threads (0 or more; negative counts as 0),
  // named `name` for top -H and profilers (at most 15 characters).
  explicit WorkPool(int threads, const std::string& name = "qipu-pool");
  // Waits for the loops in progress (their callers are still inside
  // ParallelFor(), so there are none once the owner destroys the pool)
  // and joins the threads.
  ~WorkPool();

  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  // Calls fn(i) once for every i in [0, n), on the calling thread and on
  // idle pool threads, in no particular order, and returns when every call
  // has returned. fn must be safe to call concurrently for different i and
  // must not throw. Loops of `grain` or fewer iterations run on the caller
  // alone (handing them over would cost more than it saves).
  void ParallelFor(size_t n, absl::FunctionRef<void(size_t)> fn,
                   size_t grain = 1);

  // Number of helper threads.
  int threads() const { return static_cast<int>(threads_.size()); }

 private:
  // One ParallelFor() call: its iterations are claimed one at a time.
  struct Loop;

  // Body of a helper thread.
  void Help();
  // Runs iterations of `loop` until none is left to claim.
  static void Drain(Loop& loop);

  absl::Mutex mu_;
  // Loops with iterations left to claim, oldest first.
  std::deque<std::shared_ptr<Loop>> loops_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

// Calls fn(state, i) once for every i in [0, n) on the caller and the
// idle threads of `pool`; each thread taking part makes its own `state`
// with make_state() first (at most pool.threads() + 1 of them), and uses
// it for every iteration it runs. Returns when every call has returned.
// fn must be safe to call concurrently for different i and must not
// throw; make_state must be safe to call concurrently.
template <typename MakeState, typename Fn>
void ParallelForEach(WorkPool& pool, size_t n, MakeState make_state, Fn fn) {
  std::atomic<size_t> next{0};
  const size_t lanes = std::min<size_t>(n, pool.threads() + 1);
  pool.ParallelFor(lanes, [&](size_t) {
    size_t i = next.fetch_add(1, std::memory_order_relaxed);
    if (i >= n) return;
    auto state = make_state();
    for (; i < n; i = next.fetch_add(1, std::memory_order_relaxed)) {
      fn(state, i);
    }
  });
}

}  // namespace qipu::base

#endif  // QIPU_BASE_WORK_POOL_H_

// WorkPool: a few threads that help callers run the iterations of a loop
// (ParallelFor). The coordinator validates the games of an upload message
// on it: an upload stream is read by one gRPC thread, and replaying each
// game there made that thread the coordinator's bottleneck -- one core
// validating while the others waited, whatever the machine had.
//
// The caller runs iterations too, so ParallelFor() always makes progress,
// even when every pool thread is busy with other callers' loops (or the
// pool has no threads at all). Several loops may run at once; the pool's
// threads take iterations of the oldest first.
#ifndef QIPU_COORDINATOR_WORK_POOL_H_
#define QIPU_COORDINATOR_WORK_POOL_H_

#include <cstddef>
#include <deque>
#include <memory>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/synchronization/mutex.h"

namespace qipu::coordinator {

// Thread-safe: ParallelFor() may be called from any number of threads at
// once. Not copyable or movable.
class WorkPool {
 public:
  // Starts `threads` helper threads (0 or more; negative counts as 0).
  explicit WorkPool(int threads);
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

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_WORK_POOL_H_

// QueryQueue: a few threads of their own for the queries that can run for
// seconds (pattern searches replay candidate games), with a bounded wait
// list, so that a slow query never holds one of gRPC's callback threads
// and a burst of them is refused with a clear answer instead of piling up.
//
// The fast queries (openings, ko, cycles, results, a game) read aggregates
// and the position index and are answered inline on the gRPC thread that
// received them (query_service.h); only the slow ones come here.
#ifndef QIPU_COORDINATOR_QUERY_QUEUE_H_
#define QIPU_COORDINATOR_QUERY_QUEUE_H_

#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace qipu::coordinator {

// Thread-safe. Not copyable or movable.
class QueryQueue {
 public:
  // A job: called once, on a queue thread, with `cancelled` false; or with
  // `cancelled` true (on the thread calling Stop()) when the queue stopped
  // before the job's turn came. It must finish its call either way and
  // must not throw.
  using Job = std::function<void(bool cancelled)>;

  // Starts `threads` runner threads (at least 1) named `name` (at most 15
  // characters); at most `max_waiting` (>= 0) jobs wait for a runner.
  QueryQueue(int threads, int max_waiting, const std::string& name);
  // Stop()s.
  ~QueryQueue();

  QueryQueue(const QueryQueue&) = delete;
  QueryQueue& operator=(const QueryQueue&) = delete;

  // Queues `job`. False (and `job` is not called) when every runner is
  // busy and `max_waiting` jobs are already waiting, or the queue has
  // stopped: the caller answers
  // RESOURCE_EXHAUSTED or UNAVAILABLE (see Stopped()).
  bool TrySubmit(Job job);

  // Refuses new jobs, calls every waiting job with `cancelled` true, lets
  // the running ones finish and joins the threads. Idempotent.
  void Stop();

  // Whether Stop() has been called.
  bool Stopped() const;

  // Jobs waiting for a runner, and jobs running (for tests and metrics).
  size_t waiting() const;
  size_t running() const;
  int threads() const { return num_threads_; }
  int max_waiting() const { return max_waiting_; }

 private:
  // Body of a runner thread.
  void Run();

  const int max_waiting_;
  const int num_threads_;
  mutable absl::Mutex mu_;
  std::deque<Job> waiting_ ABSL_GUARDED_BY(mu_);
  size_t running_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
  // Serialises Stop() callers (the joins happen outside mu_).
  absl::Mutex stop_mu_;
};

// Runner threads for pattern searches on this machine: a quarter of the
// cores, at least 1 (each search also uses the cores' worth of helper
// threads of its own; engine/query_pattern.cc).
int DefaultPatternThreads();

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_QUERY_QUEUE_H_

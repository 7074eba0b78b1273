#include "base/work_pool.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <utility>

namespace qipu::base {

struct WorkPool::Loop {
  Loop(size_t n, absl::FunctionRef<void(size_t)> fn) : n(n), fn(fn) {}

  const size_t n;
  const absl::FunctionRef<void(size_t)> fn;
  // Next iteration to claim (may run past n).
  std::atomic<size_t> next{0};
  // Iterations finished; the caller waits for n.
  absl::Mutex mu;
  size_t finished ABSL_GUARDED_BY(mu) = 0;
};

WorkPool::WorkPool(int threads, const std::string& name) {
  threads = std::max(threads, 0);
  threads_.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) {
    threads_.emplace_back([this, name] {
      pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
      Help();
    });
  }
}

WorkPool::~WorkPool() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  for (std::thread& t : threads_) t.join();
}

void WorkPool::Drain(Loop& loop) {
  size_t done = 0;
  for (;;) {
    const size_t i = loop.next.fetch_add(1, std::memory_order_relaxed);
    if (i >= loop.n) break;
    loop.fn(i);
    ++done;
  }
  if (done > 0) {
    absl::MutexLock lock(&loop.mu);
    loop.finished += done;
  }
}

void WorkPool::ParallelFor(size_t n, absl::FunctionRef<void(size_t)> fn,
                           size_t grain) {
  if (n == 0) return;
  if (threads_.empty() || n <= std::max<size_t>(grain, 1)) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  auto loop = std::make_shared<Loop>(n, fn);
  {
    absl::MutexLock lock(&mu_);
    loops_.push_back(loop);
  }
  Drain(*loop);
  {
    // Every iteration is claimed: no helper needs to find the loop any
    // more (one that already holds it finds nothing left to claim).
    absl::MutexLock lock(&mu_);
    auto it = std::find(loops_.begin(), loops_.end(), loop);
    if (it != loops_.end()) loops_.erase(it);
  }
  absl::MutexLock lock(&loop->mu);
  auto all_finished = [&loop]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(loop->mu) {
    return loop->finished == loop->n;
  };
  loop->mu.Await(absl::Condition(&all_finished));
}

void WorkPool::Help() {
  for (;;) {
    std::shared_ptr<Loop> loop;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !loops_.empty();
      };
      mu_.Await(absl::Condition(&ready));
      if (loops_.empty()) return;  // stopping, nothing left
      loop = loops_.front();
      // Taken off the list by the first helper to find it exhausted, so
      // that helpers do not spin on it while its caller finishes.
      if (loop->next.load(std::memory_order_relaxed) >= loop->n) {
        loops_.pop_front();
        continue;
      }
    }
    Drain(*loop);
  }
}

}  // namespace qipu::base

#include "coordinator/query_queue.h"

#include <pthread.h>

#include <algorithm>
#include <utility>

namespace qipu::coordinator {

QueryQueue::QueryQueue(int threads, int max_waiting, const std::string& name)
    : max_waiting_(std::max(0, max_waiting)),
      num_threads_(std::max(1, threads)) {
  threads_.reserve(num_threads_);
  for (int i = 0; i < num_threads_; ++i) {
    threads_.emplace_back([this] { Run(); });
    pthread_setname_np(threads_.back().native_handle(),
                       name.substr(0, 15).c_str());
  }
}

QueryQueue::~QueryQueue() { Stop(); }

bool QueryQueue::TrySubmit(Job job) {
  absl::MutexLock lock(&mu_);
  // Room for one job per runner and `max_waiting_` more: a job handed to
  // an idle runner counts as running even before the runner wakes.
  if (stopping_ || running_ + waiting_.size() >=
                       static_cast<size_t>(num_threads_) + max_waiting_) {
    return false;
  }
  waiting_.push_back(std::move(job));
  return true;
}

void QueryQueue::Run() {
  for (;;) {
    Job job;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](QueryQueue* q) ABSL_EXCLUSIVE_LOCKS_REQUIRED(q->mu_) {
            return q->stopping_ || !q->waiting_.empty();
          },
          this));
      // Stop() cancels what is waiting; a runner only ends when nothing is.
      if (waiting_.empty()) return;
      job = std::move(waiting_.front());
      waiting_.pop_front();
      ++running_;
    }
    job(/*cancelled=*/false);
    absl::MutexLock lock(&mu_);
    --running_;
  }
}

void QueryQueue::Stop() {
  absl::MutexLock stop_lock(&stop_mu_);
  std::deque<Job> cancelled;
  {
    absl::MutexLock lock(&mu_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    cancelled.swap(waiting_);
  }
  for (Job& job : cancelled) job(/*cancelled=*/true);
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

bool QueryQueue::Stopped() const {
  absl::MutexLock lock(&mu_);
  return stopping_;
}

size_t QueryQueue::waiting() const {
  absl::MutexLock lock(&mu_);
  return waiting_.size();
}

size_t QueryQueue::running() const {
  absl::MutexLock lock(&mu_);
  return running_;
}

int DefaultPatternThreads() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, cores / 4);
}

}  // namespace qipu::coordinator

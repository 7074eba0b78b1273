// FinishedGame, the unit that flows from the game runner through the spool
// to the upload stream, and GameQueue, the bounded queue between the
// runner's threads (producers) and the uploader (the one consumer). The
// bound is the first stage of flow control: when uploads stall and the
// spool is full, the uploader stops draining the queue and the runner's
// threads block in Push() instead of playing ahead.
#ifndef QIPU_WORKER_GAME_QUEUE_H_
#define QIPU_WORKER_GAME_QUEUE_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "rules/game_id.h"

namespace qipu::worker {

// The identity of a self-play game: exactly-once upload is per key (the
// coordinator answers a second upload of a key as a duplicate).
struct GameKey {
  uint64_t job = 0;
  // 0-based index of the game within its job.
  uint64_t index = 0;

  friend bool operator==(const GameKey&, const GameKey&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const GameKey& k) {
    return H::combine(std::move(h), k.job, k.index);
  }
  // "s<job>-<index>", the coordinator's text id of the game
  // (rules::GameIdText).
  std::string ToString() const {
    return rules::GameIdText(rules::GameId::SelfPlay(job, index));
  }
};

// A finished game ready for upload. Movable value type.
struct FinishedGame {
  GameKey key;
  // The lease the game was played under (informational on upload).
  std::string lease_id;
  // The serialized qipu.v1.Game (kept serialized: it is written to the
  // spool and the wire as is, and is about a third the size of the
  // parsed message).
  std::string game;
};

// Bounded multi-producer queue of finished games. Thread-safe.
class GameQueue {
 public:
  // Holds at most `capacity` (>= 1) games.
  explicit GameQueue(size_t capacity) : capacity_(capacity ? capacity : 1) {}

  GameQueue(const GameQueue&) = delete;
  GameQueue& operator=(const GameQueue&) = delete;

  // Appends `game`, blocking while the queue is full. Returns false, and
  // drops the game, when the queue is closed or when `cancel` (optional,
  // not owned) becomes true while blocked; whoever sets `cancel` must call
  // Wake() afterwards so that blocked producers notice.
  bool Push(FinishedGame game, const std::atomic<bool>* cancel = nullptr) {
    absl::MutexLock lock(&mu_);
    auto ready = [this, cancel]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return closed_ || items_.size() < capacity_ ||
             (cancel != nullptr && cancel->load());
    };
    mu_.Await(absl::Condition(&ready));
    if (closed_ || items_.size() >= capacity_) return false;
    items_.push_back(std::move(game));
    return true;
  }

  // Moves up to `max` games (oldest first) onto *out (OUT, appended to),
  // waiting up to `timeout` for `want` of them (at least 1, at most the
  // capacity) to be queued; after
  // the timeout it takes what there is. Returns how many were moved: 0
  // after a timeout with nothing queued, or when the queue is closed and
  // empty. Stops waiting early when `wake` (optional, not owned) is or
  // becomes true; whoever sets `wake` must call Wake() afterwards.
  size_t PopBatch(size_t max, absl::Duration timeout,
                  std::vector<FinishedGame>* out, size_t want = 1,
                  const std::atomic<bool>* wake = nullptr) {
    want = std::clamp<size_t>(want, 1, capacity_);
    absl::MutexLock lock(&mu_);
    auto ready = [this, want, wake]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return closed_ || items_.size() >= want ||
             (wake != nullptr && wake->load());
    };
    mu_.AwaitWithTimeout(absl::Condition(&ready), timeout);
    size_t n = 0;
    while (n < max && !items_.empty()) {
      out->push_back(std::move(items_.front()));
      items_.pop_front();
      ++n;
    }
    return n;
  }

  // Refuses further pushes and wakes every waiter; games already queued
  // can still be popped. Idempotent.
  void Close() {
    absl::MutexLock lock(&mu_);
    closed_ = true;
  }

  // Makes blocked producers and consumers re-check their conditions (see
  // Push()'s `cancel` and PopBatch()'s `wake`).
  void Wake() { absl::MutexLock lock(&mu_); }

  // Games queued now.
  size_t size() const {
    absl::MutexLock lock(&mu_);
    return items_.size();
  }
  bool closed() const {
    absl::MutexLock lock(&mu_);
    return closed_;
  }
  size_t capacity() const { return capacity_; }

 private:
  const size_t capacity_;
  mutable absl::Mutex mu_;
  // Oldest first; size() <= capacity_.
  std::deque<FinishedGame> items_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace qipu::worker

#endif  // QIPU_WORKER_GAME_QUEUE_H_

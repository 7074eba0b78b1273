// GameRunner: plays the games of one lease on T threads into a GameQueue.
// Each thread repeatedly takes the next unplayed index of the lease, plays
// it with rules::PlaySelfPlay (the light policy under the job's full rules,
// seeded from job seed and index, so the same lease always gives the same
// games whatever the thread count), converts it with wire::SelfPlayToProto
// and pushes it, serialized, to the queue. A 19x19 game takes about a
// millisecond, so "stop" never has to interrupt a game: it either lets the
// games in progress finish and be queued, or drops them.
//
// Lifecycle: Create() -> Start() -> [Stop()] -> Wait(); the destructor
// stops (abandoning) and waits. One runner per lease; the runners of two
// leases may play at once (each pushes to the same queue).
#ifndef QIPU_WORKER_GAME_RUNNER_H_
#define QIPU_WORKER_GAME_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "qipu/v1/work.pb.h"
#include "rules/rules.h"
#include "worker/game_queue.h"

namespace qipu::worker {

// The games of one lease (LeaseWorkResponse without the timing fields).
struct Lease {
  std::string lease_id;
  uint64_t job = 0;
  qipu::v1::JobConfig config;
  // Game indices to play, in order.
  std::vector<uint64_t> indices;
};

struct GameRunnerOptions {
  // Playing threads, 1..256.
  int threads = 1;
  // Worker name written into each game's provenance.
  std::string worker;
};

// How Stop() treats the games in progress.
enum class StopMode {
  // Start no new game; finish and queue the ones in progress.
  kFinishCurrent,
  // Start no new game; drop the ones in progress and stop waiting on a
  // full queue.
  kAbandon,
};

// Thread-safe: every method may be called from any thread.
class GameRunner {
 public:
  // Checks the lease (policy "random" or empty, board size, rules, komi,
  // handicap; threads in range) and prepares a runner that writes to
  // `queue` (not owned; must outlive the runner). InvalidArgument naming
  // the bad field.
  static absl::StatusOr<std::unique_ptr<GameRunner>> Create(
      const GameRunnerOptions& options, Lease work, GameQueue* queue);

  // Stop(kAbandon), then Wait().
  ~GameRunner();

  GameRunner(const GameRunner&) = delete;
  GameRunner& operator=(const GameRunner&) = delete;

  // Starts the threads. Call once.
  void Start();

  // Asks the threads to end (see StopMode); returns at once. Idempotent; a
  // later kAbandon upgrades an earlier kFinishCurrent.
  void Stop(StopMode mode);

  // Blocks until every thread has ended: all games played, or stopped, or
  // the queue closed. Returns the first error a game reported (none is
  // expected after Create() validated the lease). Idempotent, and safe to
  // call from several threads; returns at once when Start() was never
  // called.
  absl::Status Wait();

  // Blocks until every game of the lease has been handed to a thread (the
  // threads are on their last games), or the runner was stopped, or its
  // threads ended. Returns at once when Start() was never called. The
  // worker starts the next lease's runner then, so that the cores do not
  // wait for the slowest last game.
  void WaitAllTaken();

  // True once every game of the lease has been queued.
  bool finished() const { return queued() == work_.indices.size(); }

  // Games queued so far.
  size_t queued() const { return queued_.load(); }

  // Indices that were not queued (never started, abandoned or refused by a
  // closed queue), in lease order. Meaningful after Wait().
  std::vector<uint64_t> Unplayed() const;

  const Lease& work() const { return work_; }

 private:
  GameRunner(const GameRunnerOptions& options, Lease work,
             const rules::Rules& rules, GameQueue* queue);

  // Body of one playing thread.
  void Run();

  const GameRunnerOptions options_;
  const Lease work_;
  const rules::Rules rules_;
  GameQueue* const queue_;
  // Next position in work_.indices to hand out.
  std::atomic<size_t> next_{0};
  std::atomic<size_t> queued_{0};
  // Set by Stop(): no new games; abandon_ also drops games in progress.
  std::atomic<bool> stop_{false};
  std::atomic<bool> abandon_{false};

  mutable absl::Mutex mu_;
  // One flag per position of work_.indices: true once queued.
  std::vector<bool> done_ ABSL_GUARDED_BY(mu_);
  absl::Status error_ ABSL_GUARDED_BY(mu_);
  // Joined (and cleared) by the first Wait().
  std::vector<std::thread> threads_ ABSL_GUARDED_BY(mu_);
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  // A Wait() took threads_ to join them / has joined them all.
  bool joining_ ABSL_GUARDED_BY(mu_) = false;
  bool joined_ ABSL_GUARDED_BY(mu_) = false;
  // Threads started and not yet ended.
  size_t running_ ABSL_GUARDED_BY(mu_) = 0;
  // The last index was handed out, or Stop() was called.
  bool all_taken_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace qipu::worker

#endif  // QIPU_WORKER_GAME_RUNNER_H_

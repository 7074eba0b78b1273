// GameRunner: plays the games of one lease on T threads into a GameQueue.
// Each thread repeatedly takes the next unplayed index of the lease, plays
// it, converts it to a qipu.v1.Game and pushes it, serialized, to the
// queue. Random-vs-random jobs take the fast path: rules::PlaySelfPlay (the
// light policy under the job's full rules, seeded from job seed and index,
// so the same lease always gives the same games whatever the thread
// count) and wire::SelfPlayToProto. Jobs where either colour plays another
// policy are played through policy::Policy objects (worker/policy_game.h):
// one PolicyGame -- a black and a white policy -- per thread, made by
// Create(), seeded per game from the game seed. A light 19x19 game takes
// about a millisecond, a searched one much longer; "stop" never interrupts
// a game: it either lets the games in progress finish and be queued, or
// drops them once they end.
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
#include "proto/job_policies.h"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/work.pb.h"
#include "rules/rules.h"
#include "worker/game_queue.h"
#include "worker/policy_game.h"

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
  // Checks the lease (board size, rules, komi, handicap; threads in
  // range), makes the policies of each playing thread unless both colours
  // play "random" (worker/policy_maker.h: a bad spec, or a gtp: spec this
  // worker cannot run, refuses the lease), and prepares a runner that
  // writes to `queue` (not owned; must outlive the runner).
  // InvalidArgument naming the bad field, or the policy maker's error.
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
             const rules::Rules& rules,
             std::vector<std::unique_ptr<PolicyGame>> players,
             GameQueue* queue);

  // Body of one playing thread: the light fast path.
  void Run();
  // Body of one playing thread through `player`'s policies.
  void RunPolicies(PolicyGame* player);
  // Pushes the game at lease position `i` (game `index`) to the queue and
  // marks it queued. False when the queue refused it (closed, abandoned).
  bool Queue(size_t i, uint64_t index, const qipu::v1::Game& proto);

  const GameRunnerOptions options_;
  const Lease work_;
  const rules::Rules rules_;
  // Each colour's policy spec (from the lease's config).
  const wire::ColourPolicies policies_;
  // One per playing thread, for policy games; empty on the fast path.
  // Thread i uses players_[i] alone.
  const std::vector<std::unique_ptr<PolicyGame>> players_;
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

// Worker: one self-play worker process in a library, as qipu-worker runs
// it and as `qipu local` and the tests embed it. It owns the pieces below
// and runs two threads of its own:
//   - the lease loop: LeaseWork (backing off while the coordinator is
//     down), then a GameRunner plays the lease into the GameQueue; the
//     next lease is asked for while it plays, and its runner starts when
//     the current one has handed out its last game (two runners overlap
//     on the last games). It stops asking for work while too many games
//     wait for upload;
//   - the renewal loop: renews every held lease at a third of its TTL. A
//     lease the coordinator no longer knows (NOT_FOUND: it expired) stops
//     its runner; the games already finished are still uploaded. A lease
//     whose games have all been acknowledged is returned.
// The Uploader moves games from the queue through the Spool to the
// coordinator. Games are identified by (job, index), so replaying or
// resending one is harmless: the coordinator stores it once.
//
// Stop(graceful = true), e.g. on SIGTERM: no new lease; the games in
// progress finish; pending games are uploaded for up to drain_timeout;
// held leases are returned (their unplayed games go back to the pool);
// games still unacknowledged stay in the spool for the next run.
// Stop(graceful = false): games in progress are dropped, nothing more is
// uploaded or returned (leases expire on the coordinator).
#ifndef QIPU_WORKER_WORKER_H_
#define QIPU_WORKER_WORKER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "base/channel.h"
#include "worker/ack_log.h"
#include "worker/backoff.h"
#include "worker/client.h"
#include "worker/game_queue.h"
#include "worker/game_runner.h"
#include "worker/spool.h"
#include "worker/uploader.h"

namespace qipu::worker {

struct WorkerOptions {
  // Coordinator address, "host:port". Required (with `channel` set, a
  // name for log lines).
  std::string coordinator;
  // An existing channel to the coordinator instead of dialling
  // `coordinator` (`qipu local` passes its embedded coordinator's
  // in-process channel). May be null.
  std::shared_ptr<grpc::Channel> channel;
  // TLS of the channel to `coordinator` (plain text when tls.ca_pem is
  // empty) and the worker token sent with every call (empty: none).
  base::ClientTls tls;
  std::string token;
  // Playing threads, 1..256.
  int threads = 1;
  // Spool directory (created when missing). Required; one worker per
  // directory at a time.
  std::string spool_dir;
  // Worker name, unique per process; empty means "<hostname>-<pid>".
  std::string name;
  // Games asked for per lease; 0 = the coordinator's default.
  uint32_t lease_games = 0;
  // Play only games of this job (0 = whatever the coordinator hands out).
  uint64_t job = 0;
  // Exit (Wait() returns OK) after this long without a lease and with
  // nothing left to upload; zero means never. Time the coordinator is
  // unreachable counts as time without work.
  absl::Duration exit_when_idle = absl::ZeroDuration();
  // Graceful stop: how long to keep uploading pending games.
  absl::Duration drain_timeout = absl::Seconds(10);
  // Deadline of each unary call to the coordinator.
  absl::Duration rpc_timeout = absl::Seconds(10);
  // Longest wait between LeaseWork attempts when there is no work.
  absl::Duration max_idle_poll = absl::Seconds(5);
  // No new lease while more games than this wait for upload (four upload
  // windows: the spool holds them, a few MB).
  size_t max_backlog = 8192;
  // Capacity of the queue between the runner and the uploader.
  size_t queue_games = 256;
  // Delays between failed LeaseWork calls (the uploader has its own in
  // `upload.backoff`).
  BackoffOptions backoff;
  // Upload stream settings (worker name, seed and ack log are filled in).
  UploaderOptions upload;
  // When not empty, the id of every game the coordinator acknowledges is
  // appended to this file (worker/ack_log.h; --ack-log), for tests that
  // check each acknowledged game is stored. Empty: nothing is written.
  std::string ack_log;
};

// Counters since Start(). Plain value.
struct WorkerStats {
  uint64_t leases = 0;
  // Games queued for upload by the runners.
  uint64_t played = 0;
  // Leases the coordinator reported expired on renewal.
  uint64_t leases_lost = 0;
  UploaderStats upload;
  SpoolStats spool;
};

// Thread-safe: Stop(), stats() and name() may be called from any thread.
class Worker {
 public:
  explicit Worker(const WorkerOptions& options);
  // Stop(false), then Wait().
  ~Worker();

  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Opens the spool (games left by an earlier run are resent first) and
  // starts the threads. InvalidArgument for bad options; the spool's
  // errors (FailedPrecondition when another worker holds it). Call once.
  absl::Status Start();

  // Asks the worker to stop (see the file comment); returns at once. Safe
  // from any thread but not from a signal handler. A later Stop(false)
  // hurries an earlier graceful one.
  void Stop(bool graceful);

  // Blocks until the worker has stopped -- after Stop(), after
  // exit_when_idle, or after a failure that retrying cannot fix (the
  // coordinator refused LeaseWork with a non-transient code) -- and its
  // spool is closed. Returns that failure, else OK. Idempotent.
  absl::Status Wait();

  // The worker's name (options.name or the generated one).
  const std::string& name() const { return name_; }

  WorkerStats stats() const;

 private:
  // A lease this worker holds.
  struct Held {
    uint64_t job = 0;
    // Renewal interval (a third of the TTL) and when to renew next.
    absl::Duration interval;
    absl::Time next_renew;
    // Games of the lease, games queued by its runner, and games acked.
    size_t games = 0;
    size_t played = 0;
    size_t acked = 0;
    // Its runner has ended (played is final).
    bool runner_done = false;
  };

  // A lease's runner and when it started playing.
  struct Playing {
    std::unique_ptr<GameRunner> runner;
    absl::Time start;
  };

  void LeaseLoop();
  void RenewLoop();
  // Creates the runner of a granted lease (not started) and records the
  // lease as held; null, the lease returned, when it cannot be played.
  std::unique_ptr<Playing> TakeLease(Lease work, absl::Duration ttl);
  // Waits for a started runner's threads and records what it played.
  void FinishRunner(std::unique_ptr<Playing> p);
  // Ends the worker: drains the uploader, returns leases, closes the spool.
  void Shutdown();
  // Waits up to `d` unless a stop is requested; true when stopping.
  bool SleepUnlessStopped(absl::Duration d);
  void OnAck(const GameKey& key, const std::string& lease_id);
  // Returns `lease_id` to the coordinator (best effort, logged).
  void Return(const std::string& lease_id, const char* why);

  const WorkerOptions options_;
  const std::string name_;
  // Created by Start(). The spool and the uploader are used by the
  // worker's threads and destroyed by Shutdown() (on the lease thread)
  // under mu_, which stats() holds to read them.
  std::unique_ptr<Spool> spool_;
  // Opened by Start() when options.ack_log is set; outlives the uploader.
  std::unique_ptr<AckLog> ack_log_;
  std::unique_ptr<CoordinatorClient> client_;
  std::unique_ptr<GameQueue> queue_;
  std::unique_ptr<Uploader> uploader_;
  // Seed of the backoff jitter (from the name and the process).
  uint64_t seed_ = 1;
  std::thread lease_thread_;
  std::thread renew_thread_;

  mutable absl::Mutex mu_;
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  bool graceful_ ABSL_GUARDED_BY(mu_) = true;
  // Set by Shutdown() once the renewal loop must end.
  bool renew_stop_ ABSL_GUARDED_BY(mu_) = false;
  // Set once Shutdown() has finished; then status_ is final.
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status status_ ABSL_GUARDED_BY(mu_);
  // The runners playing now (at most two: a lease's and, on its last
  // games, the next one's); owned by the lease loop.
  std::vector<GameRunner*> runners_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, Held> held_ ABSL_GUARDED_BY(mu_);
  WorkerStats stats_ ABSL_GUARDED_BY(mu_);
  // Joins the threads exactly once (Wait() may run on several threads).
  absl::Mutex join_mu_;
  bool joined_ ABSL_GUARDED_BY(join_mu_) = false;
};

}  // namespace qipu::worker

#endif  // QIPU_WORKER_WORKER_H_

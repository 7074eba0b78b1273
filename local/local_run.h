// LocalRun: qipu on one machine -- a coordinator in this process (RocksDB
// in a directory, its gRPC server on 127.0.0.1) and a worker talking to it
// over gRPC's in-process transport (or over 127.0.0.1 as a remote worker
// would), playing one job: a new one, or one an earlier run left
// unfinished. What `qipu local` (and so ./ops/run) runs.
//
// Life of a run: Start() submits (or resumes) the job and starts the
// worker; the caller Poll()s the job's progress until it is finished,
// cancelled or the caller wants to stop; Finish() stops the worker (the
// games in progress finish), reads the summary back from the database
// through the query engine, and shuts the coordinator down.
//
// Storage failures: while the store refuses writes (a full disk, a deleted
// directory) the worker would resend forever; Poll() gives the store
// `storage_failure_grace` of its own resume attempts (none after an error
// it cannot resume from), then stops the run and returns the cause.
//
// Not thread-safe: one thread drives a run.
#ifndef QIPU_LOCAL_LOCAL_RUN_H_
#define QIPU_LOCAL_LOCAL_RUN_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "coordinator/coordinator.h"
#include "qipu/v1/query.pb.h"
#include "qipu/v1/work.pb.h"
#include "worker/worker.h"

namespace qipu::local {

// What to run. Plain value.
struct LocalOptions {
  // The job to submit; ignored when resume_job is set.
  qipu::v1::SubmitJobRequest job;
  // A job of the database to continue (one an interrupted run left), with
  // its own configuration; 0 submits `job`.
  uint64_t resume_job = 0;
  // Database directory (created when missing); the worker's spool goes in
  // its worker-spool/ folder.
  std::string db = "./qipu-data";
  // Playing threads of the worker, >= 1.
  int threads = 2;
  // Worker to coordinator over 127.0.0.1 (true) or the in-process channel.
  bool tcp = false;
  // Continuations in the summary's top openings.
  int top = 8;
  // How long the store may refuse writes before the run gives up.
  absl::Duration storage_failure_grace = absl::Seconds(5);
};

// Where a job stands. Plain value.
struct LocalProgress {
  uint64_t done = 0;
  uint64_t rejected = 0;
  // Every game stored.
  bool finished = false;
  // Someone cancelled the job (qipu job cancel).
  bool cancelled = false;
};

// What a run found, read back from the database. Plain value.
struct LocalSummary {
  uint64_t job = 0;
  uint64_t requested = 0;
  qipu::v1::JobConfig config;
  std::string db;
  // Wall clock from the worker's start to Finish().
  double seconds = 0;
  // Games this run stored per second (an earlier run's games of a resumed
  // job are in the summary, not in the rate).
  double games_per_sec = 0;
  // The signal that interrupted the run, or 0.
  int interrupted_by = 0;
  bool cancelled = false;
  // The job's games only (filter source job:<id> and its board size).
  qipu::v1::ResultsResponse results;
  qipu::v1::KoResponse ko;
  qipu::v1::CyclesResponse cycles;
  // First moves, all symmetries folded, the `top` most played.
  qipu::v1::OpeningsResponse openings;
};

class LocalRun {
 public:
  // Creates the database directory, starts the coordinator, submits (or
  // resumes) the job and starts the worker. InvalidArgument for a refused
  // job request; NotFound for an unknown --job; FailedPrecondition for a
  // cancelled one; errors of the coordinator's and worker's start.
  static absl::StatusOr<std::unique_ptr<LocalRun>> Start(
      const LocalOptions& options);
  // Stops the worker at once and shuts the coordinator down (a run not
  // Finish()ed; acknowledged games are durable).
  ~LocalRun();

  LocalRun(const LocalRun&) = delete;
  LocalRun& operator=(const LocalRun&) = delete;

  uint64_t job() const { return job_; }
  uint64_t requested() const { return requested_; }
  const qipu::v1::JobConfig& config() const { return config_; }

  // Jobs of the database other than this run's that are still running
  // (interrupted or killed earlier runs); this run leaves them alone.
  std::vector<qipu::v1::JobStatus> OtherUnfinishedJobs() const;

  // The job's progress. After the store refused writes for longer than the
  // grace period (or failed for good), stops the run and returns the cause
  // with the number of games stored before it.
  absl::StatusOr<LocalProgress> Poll();

  // Stops the worker gracefully (the games in progress finish and are
  // stored), reads the summary and shuts the coordinator down.
  // `interrupted_by` is the signal that ended the run early, or 0.
  absl::StatusOr<LocalSummary> Finish(int interrupted_by = 0);

 private:
  explicit LocalRun(const LocalOptions& options) : options_(options) {}

  // Submits or resumes the job.
  absl::Status StartJob();
  // Stops the worker (gracefully or not) and waits for it.
  void StopWorker(bool graceful);

  const LocalOptions options_;
  std::unique_ptr<coordinator::Coordinator> coordinator_;
  std::unique_ptr<worker::Worker> worker_;
  uint64_t job_ = 0;
  uint64_t requested_ = 0;
  qipu::v1::JobConfig config_;
  // Games an earlier run of a resumed job stored.
  uint64_t done_before_ = 0;
  absl::Time started_;
  bool cancelled_ = false;
};

}  // namespace qipu::local

#endif  // QIPU_LOCAL_LOCAL_RUN_H_

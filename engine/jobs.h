// JobManager: self-play jobs and their leases. A job of N games is handed
// out as leases of a few hundred game indices; a lease that is not renewed
// within its TTL expires and its unfinished indices go back to the pool
// (re-issued games replay identically: their seeds derive from job and
// index, so a late upload of the old lease simply collides as duplicate).
//
// State lives in memory (per job: done and leased bitmaps, a queue of
// returned indices and a cursor over fresh ones) and is persisted in the
// jobs column family: job records at submit (durable), lease records on
// grant/renew (not synced: a lost lease only means a game may be played
// twice, never stored twice), rejection counts and abandoned indices. The
// done bitmaps are the games stored: Load() reads them back from the games
// column family and rebuilds everything else from the jobs family after a
// restart; restored leases get a fresh TTL so their workers can renew them.
//
// Thread-safe.
#ifndef QIPU_ENGINE_JOBS_H_
#define QIPU_ENGINE_JOBS_H_

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "qipu/v1/store.pb.h"
#include "qipu/v1/work.pb.h"
#include "rules/rules.h"
#include "store/configs.h"
#include "store/store.h"

namespace qipu::engine {

struct JobManagerOptions {
  // Games per lease.
  int lease_games = 256;
  // A lease expires this long after its grant or last renewal.
  absl::Duration lease_ttl = absl::Seconds(30);
  // Rejections of one game index (from different uploads) after which the
  // index is given up instead of being handed out again.
  int max_rejections = 3;
};

// What ingest needs to know of a job.
struct JobInfo {
  uint64_t job = 0;
  qipu::v1::JobConfig config;
  rules::Rules rules;
  uint32_t config_id = 0;
  uint64_t requested = 0;
};

// A granted lease.
struct Lease {
  std::string id;
  uint64_t job = 0;
  qipu::v1::JobConfig config;
  std::vector<uint64_t> indices;
  absl::Duration ttl;
};

class JobManager {
 public:
  // Does not own store or configs; both must outlive the manager.
  JobManager(store::Store* store, store::ConfigRegistry* configs,
             const JobManagerOptions& options);

  // Restores jobs, done bitmaps (from the games CF), abandoned indices and
  // leases. Call once before anything else.
  absl::Status Load();

  // Validates `config` (size, rules, handicap, policies, depth) and creates
  // a job of `games` games, its policy specs stored canonical
  // (wire::CanonicalizeJobPolicies). InvalidArgument names the bad field
  // (and for a bad policy spec, why).
  absl::StatusOr<uint64_t> Submit(uint64_t games,
                                  const qipu::v1::JobConfig& config);

  // A lease of at most max_games (0 = default) games of the oldest job with
  // work left -- of job `only_job` when it is not 0 -- or nullopt when
  // there is none. NotFound when `only_job` does not exist,
  // FailedPrecondition when it was cancelled.
  absl::StatusOr<std::optional<Lease>> Grant(const std::string& worker,
                                             uint32_t max_games,
                                             uint64_t only_job = 0);
  // Cancels job `job`: no lease of it is granted again (Grant() for it
  // alone is FailedPrecondition), its open leases end at once (renewals
  // answer NotFound, so their workers stop its games), and its state is
  // CANCELLED; games of it uploaded later are still stored. Durable when
  // it returns. NotFound for an unknown job, FailedPrecondition for a job
  // that is done; a cancelled job is returned as it is. Returns the
  // job's status.
  absl::StatusOr<qipu::v1::JobStatus> Cancel(uint64_t job);

  // Extends a lease. NotFound when it is unknown or expired.
  absl::StatusOr<absl::Duration> Renew(const std::string& lease_id,
                                       const std::string& worker);
  // Gives a lease back: its unfinished games return to the pool.
  absl::Status Return(const std::string& lease_id, const std::string& worker);
  // Expires leases whose deadline is before `now`; returns how many.
  int ExpireLeases(absl::Time now);

  // The job of a stored or uploaded game. NotFound for unknown jobs.
  absl::StatusOr<JobInfo> Find(uint64_t job) const;

  // Ingest callbacks: `index` of `job` is now stored / was rejected.
  void MarkStored(uint64_t job, uint64_t index);
  // Whether game `index` of `job` is stored: exact for the games of known
  // jobs (Load() reads which are from the games column family, MarkStored()
  // keeps it up to date); nullopt for an unknown job or an index outside
  // it. Ingestor::KnownStored for the coordinator's ingestor.
  std::optional<bool> IsStored(uint64_t job, uint64_t index) const;
  void MarkRejected(uint64_t job, uint64_t index, const std::string& reason);

  // Status of one job (NotFound) or, with job == 0, of all jobs.
  absl::StatusOr<std::vector<qipu::v1::JobStatus>> Status(uint64_t job) const;

  // Totals for metrics.
  int open_leases() const;
  uint64_t expired_leases() const;
  // Games not yet stored or abandoned over all running jobs.
  uint64_t queued_games() const;

 private:
  struct JobState {
    qipu::v1::JobRecord record;
    rules::Rules rules;
    std::vector<bool> done;
    std::vector<bool> leased;
    uint64_t done_count = 0;
    uint64_t abandoned_count = 0;
    uint64_t rejected_uploads = 0;
    // Next never-issued index.
    uint64_t cursor = 0;
    // Indices whose leases ended unfinished.
    std::deque<uint64_t> returned;
    absl::flat_hash_map<uint64_t, int> rejections;
    std::vector<bool> abandoned;
    int open_leases = 0;
  };
  struct LeaseState {
    uint64_t job = 0;
    std::string worker;
    std::vector<uint64_t> indices;
    absl::Time expires;
  };

  bool Finished(const JobState& j) const {
    return j.done_count + j.abandoned_count >= j.record.requested();
  }
  // Finished or cancelled: no games of it to hand out.
  bool Closed(const JobState& j) const {
    return Finished(j) || j.record.cancelled_unix_micros() != 0;
  }
  qipu::v1::JobStatus StatusOf(const JobState& j) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  using Leases = absl::flat_hash_map<std::string, LeaseState>;
  // The lease `id`, or NotFound ("unknown or expired").
  absl::StatusOr<Leases::iterator> FindLeaseLocked(const std::string& id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ReleaseLeaseLocked(const std::string& id, LeaseState& lease)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void PersistLease(const std::string& id, const LeaseState& lease);
  void DeleteLease(const std::string& id, uint64_t job);
  absl::Status LoadDone(JobState* j);

  store::Store* store_;
  store::ConfigRegistry* configs_;
  const JobManagerOptions options_;
  mutable absl::Mutex mu_;
  std::map<uint64_t, JobState> jobs_ ABSL_GUARDED_BY(mu_);
  Leases leases_ ABSL_GUARDED_BY(mu_);
  uint64_t expired_ ABSL_GUARDED_BY(mu_) = 0;
};

// Checks a job configuration and resolves its rules.
absl::StatusOr<rules::Rules> ValidateJobConfig(const qipu::v1::JobConfig& c);

// The configuration bucket of a job's games.
qipu::v1::ConfigRecord JobConfigRecord(uint64_t job,
                                       const qipu::v1::JobConfig& c,
                                       const rules::Rules& r);

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_JOBS_H_

#include "engine/jobs.h"

#include <algorithm>
#include <memory>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/quote.h"
#include "base/status_macros.h"
#include "proto/convert.h"
#include "proto/job_policies.h"
#include "rules/coord.h"
#include "rules/rules_key.h"
#include "rules/scoring.h"
#include "spdlog/spdlog.h"
#include "store/keys.h"

namespace qipu::engine {
namespace {

constexpr uint64_t kMaxJobGames = 100'000'000;

int64_t ToMicros(absl::Time t) { return absl::ToUnixMicros(t); }

}  // namespace

absl::StatusOr<rules::Rules> ValidateJobConfig(const qipu::v1::JobConfig& c) {
  const int w = static_cast<int>(c.width());
  const int h = static_cast<int>(c.height());
  if (absl::Status s = rules::ValidateSize(w, h); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("config.size: ", s.message()));
  }
  auto r = wire::RulesFromProto(c.rules());
  if (!r.ok()) return r.status();
  if (c.handicap() == 1 || c.handicap() > 9) {
    return absl::InvalidArgumentError(
        absl::StrCat("config.handicap: ", c.handicap(), " (use 0 or 2..9)"));
  }
  if (c.handicap() > 0) {
    if (auto s = rules::FixedHandicap(w, h, static_cast<int>(c.handicap()));
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("config.handicap: ", s.status().message()));
    }
  }
  // The policies must be valid specs (a copy: the caller's config is
  // canonicalised by Submit()).
  qipu::v1::JobConfig canonical = c;
  if (absl::Status s = wire::CanonicalizeJobPolicies(&canonical); !s.ok()) {
    return s;
  }
  if (c.index_depth() > 1000) {
    return absl::InvalidArgumentError(
        absl::StrCat("config.index_depth: ", c.index_depth(), " exceeds 1000"));
  }
  return *r;
}

qipu::v1::ConfigRecord JobConfigRecord(uint64_t job,
                                       const qipu::v1::JobConfig& c,
                                       const rules::Rules& r) {
  qipu::v1::ConfigRecord rec;
  rec.set_width(c.width());
  rec.set_height(c.height());
  rec.set_rules_key(rules::RulesKey(r).Text());
  rec.set_preset(rules::PresetName(r));
  rec.set_komi(r.komi);
  rec.set_handicap(c.handicap());
  rec.set_source(absl::StrCat("job:", job));
  // Black's policy, and White's when it differs: a job of one policy gets
  // the configuration tuple it got before per-colour policies.
  const wire::ColourPolicies p = wire::JobPolicies(c);
  rec.set_policy(p.black);
  if (!p.same()) rec.set_white_policy(p.white);
  return rec;
}

JobManager::JobManager(store::Store* store, store::ConfigRegistry* configs,
                       const JobManagerOptions& options)
    : store_(store), configs_(configs), options_(options) {}

absl::Status JobManager::LoadDone(JobState* j) {
  const uint64_t job = j->record.job();
  const std::string prefix = store::JobGamesPrefix(job);
  store::Cursor it = store_->Scan(store::Records::kGames, {.prefix = prefix});
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    auto id = store::DecodeGameKey(it.key());
    if (!id || id->lo >= j->record.requested()) continue;
    if (!j->done[id->lo]) {
      j->done[id->lo] = true;
      ++j->done_count;
    }
  }
  return it.status();
}

absl::Status JobManager::Load() {
  absl::MutexLock lock(&mu_);
  // Jobs first, then their counters, leases and abandoned games.
  for (const store::Records kind :
       {store::Records::kJobs, store::Records::kJobCounters,
        store::Records::kLeases, store::Records::kAbandoned}) {
    store::Cursor it = store_->Scan(kind);
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      const absl::string_view key = it.key();
      if (kind == store::Records::kJobs) {
        JobState j;
        if (!j.record.ParseFromArray(it.value().data(),
                                     static_cast<int>(it.value().size()))) {
          return absl::DataLossError(
              absl::StrCat("job record ", key.size(), " damaged"));
        }
        auto r = ValidateJobConfig(j.record.config());
        if (!r.ok()) return r.status();
        j.rules = *r;
        const uint64_t n = j.record.requested();
        j.done.assign(n, false);
        j.leased.assign(n, false);
        j.abandoned.assign(n, false);
        QIPU_RETURN_IF_ERROR(LoadDone(&j));
        jobs_[j.record.job()] = std::move(j);
      } else if (kind == store::Records::kJobCounters) {
        uint64_t job = 0;
        store::JobCounter counter{};
        if (!store::DecodeJobCounterKey(key, &job, &counter) ||
            counter != store::JobCounter::kRejected) {
          continue;
        }
        auto v = store::DecodeUint64Value(it.value());
        auto jt = jobs_.find(job);
        if (v && jt != jobs_.end()) jt->second.rejected_uploads = *v;
      } else if (kind == store::Records::kAbandoned) {
        uint64_t job = 0;
        uint64_t index = 0;
        auto jt = store::DecodeAbandonedKey(key, &job, &index) ? jobs_.find(job)
                                                               : jobs_.end();
        if (jt != jobs_.end() && index < jt->second.record.requested() &&
            !jt->second.abandoned[index] && !jt->second.done[index]) {
          jt->second.abandoned[index] = true;
          ++jt->second.abandoned_count;
        }
      } else if (kind == store::Records::kLeases) {
        qipu::v1::LeaseRecord rec;
        if (!rec.ParseFromArray(it.value().data(),
                                static_cast<int>(it.value().size()))) {
          continue;  // a damaged lease only costs a replayed lease
        }
        auto jt = jobs_.find(rec.job());
        // (A cancelled job's leases were deleted with its cancellation.)
        if (jt == jobs_.end() ||
            jt->second.record.cancelled_unix_micros() != 0) {
          continue;
        }
        LeaseState l;
        l.job = rec.job();
        l.worker = rec.worker();
        l.expires = absl::Now() + options_.lease_ttl;
        for (uint64_t i : rec.indices()) {
          if (i < jt->second.record.requested() && !jt->second.leased[i]) {
            jt->second.leased[i] = true;
            l.indices.push_back(i);
          }
        }
        ++jt->second.open_leases;
        leases_[rec.lease_id()] = std::move(l);
      }
    }
    QIPU_RETURN_IF_ERROR(it.status());
  }
  // Rebuild the pools: everything below the highest issued index that is
  // neither stored, abandoned nor leased goes to `returned`.
  for (auto& [id, j] : jobs_) {
    uint64_t cursor = 0;
    for (uint64_t i = 0; i < j.record.requested(); ++i) {
      if (j.done[i] || j.leased[i] || j.abandoned[i]) cursor = i + 1;
    }
    j.cursor = cursor;
    for (uint64_t i = 0; i < cursor; ++i) {
      if (!j.done[i] && !j.leased[i] && !j.abandoned[i])
        j.returned.push_back(i);
    }
    spdlog::info("job {}: {} of {} games stored, {} leases restored", id,
                 j.done_count, j.record.requested(), j.open_leases);
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> JobManager::Submit(
    uint64_t games, const qipu::v1::JobConfig& submitted) {
  if (games == 0 || games > kMaxJobGames) {
    return absl::InvalidArgumentError(
        absl::StrCat("games: ", games, " (must be 1..", kMaxJobGames, ")"));
  }
  // Stored with canonical policy specs: one policy, one name.
  qipu::v1::JobConfig config = submitted;
  if (absl::Status s = wire::CanonicalizeJobPolicies(&config); !s.ok()) {
    return s;
  }
  auto r = ValidateJobConfig(config);
  if (!r.ok()) return r.status();
  auto job = store_->NextCounter("next_job");
  if (!job.ok()) return job.status();
  auto config_id = configs_->Intern(JobConfigRecord(*job, config, *r));
  if (!config_id.ok()) return config_id.status();
  JobState j;
  j.record.set_job(*job);
  *j.record.mutable_config() = config;
  *j.record.mutable_config()->mutable_rules() = wire::RulesToProto(*r);
  j.record.set_requested(games);
  j.record.set_created_unix_micros(ToMicros(absl::Now()));
  j.record.set_config_id(*config_id);
  j.rules = *r;
  j.done.assign(games, false);
  j.leased.assign(games, false);
  j.abandoned.assign(games, false);
  store::WriteSet batch(store_);
  batch.Put(store::Records::kJobs, store::JobKey(*job),
            j.record.SerializeAsString());
  if (absl::Status s = store_->Commit(&batch); !s.ok()) return s;
  spdlog::info("job {}: submitted, {} games {}x{} {}, policy {}", *job, games,
               config.width(), config.height(), rules::RulesKey(*r).Text(),
               config.policy());
  absl::MutexLock lock(&mu_);
  jobs_[*job] = std::move(j);
  return *job;
}

void JobManager::PersistLease(const std::string& id, const LeaseState& lease) {
  qipu::v1::LeaseRecord rec;
  rec.set_lease_id(id);
  rec.set_job(lease.job);
  rec.set_worker(lease.worker);
  for (uint64_t i : lease.indices) rec.add_indices(i);
  rec.set_expires_unix_micros(ToMicros(lease.expires));
  // Not synced, see the class comment. A failure is in the store's health.
  store_
      ->Put(store::Records::kLeases, store::LeaseKey(lease.job, id),
            rec.SerializeAsString(), store::Durability::kNoSync)
      .IgnoreError();
}

void JobManager::DeleteLease(const std::string& id, uint64_t job) {
  store_
      ->Delete(store::Records::kLeases, store::LeaseKey(job, id),
               store::Durability::kNoSync)
      .IgnoreError();
}

absl::StatusOr<std::optional<Lease>> JobManager::Grant(
    const std::string& worker, uint32_t max_games, uint64_t only_job) {
  const uint32_t want =
      max_games == 0 ? options_.lease_games
                     : std::min<uint32_t>(max_games, 10 * options_.lease_games);
  absl::MutexLock lock(&mu_);
  if (only_job != 0) {
    auto it = jobs_.find(only_job);
    if (it == jobs_.end()) {
      return absl::NotFoundError(
          absl::StrCat("job ", only_job, " does not exist"));
    }
    if (it->second.record.cancelled_unix_micros() != 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("job ", only_job, " was cancelled"));
    }
  }
  for (auto& [job, j] : jobs_) {
    if (only_job != 0 && job != only_job) continue;
    if (Closed(j)) continue;
    std::vector<uint64_t> picked;
    while (picked.size() < want && !j.returned.empty()) {
      const uint64_t i = j.returned.front();
      j.returned.pop_front();
      if (!j.done[i] && !j.leased[i] && !j.abandoned[i]) picked.push_back(i);
    }
    while (picked.size() < want && j.cursor < j.record.requested()) {
      const uint64_t i = j.cursor++;
      if (!j.done[i] && !j.leased[i] && !j.abandoned[i]) picked.push_back(i);
    }
    if (picked.empty()) continue;
    absl::BitGen gen;
    const std::string id =
        absl::StrFormat("%d-%016x", job, absl::Uniform<uint64_t>(gen));
    LeaseState l;
    l.job = job;
    l.worker = worker;
    l.indices = picked;
    l.expires = absl::Now() + options_.lease_ttl;
    for (uint64_t i : picked) j.leased[i] = true;
    ++j.open_leases;
    PersistLease(id, l);
    leases_[id] = l;
    spdlog::debug("job {}: lease {} of {} games to {}", job, id, picked.size(),
                  worker);
    Lease out;
    out.id = id;
    out.job = job;
    out.config = j.record.config();
    out.indices = std::move(picked);
    out.ttl = options_.lease_ttl;
    return std::optional<Lease>(std::move(out));
  }
  return std::optional<Lease>();
}

absl::StatusOr<qipu::v1::JobStatus> JobManager::Cancel(uint64_t job) {
  absl::MutexLock lock(&mu_);
  auto it = jobs_.find(job);
  if (it == jobs_.end()) {
    return absl::NotFoundError(absl::StrCat("job ", job, " does not exist"));
  }
  JobState& j = it->second;
  if (j.record.cancelled_unix_micros() != 0) return StatusOf(j);
  if (Finished(j)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "job ", job, " is done (", j.done_count, " of ", j.record.requested(),
        " games stored): nothing to cancel"));
  }
  qipu::v1::JobRecord record = j.record;
  record.set_cancelled_unix_micros(ToMicros(absl::Now()));
  store::WriteSet batch(store_);
  batch.Put(store::Records::kJobs, store::JobKey(job),
            record.SerializeAsString());
  for (const auto& [id, lease] : leases_) {
    if (lease.job == job)
      batch.Delete(store::Records::kLeases, store::LeaseKey(job, id));
  }
  if (absl::Status s = store_->Commit(&batch); !s.ok()) return s;
  j.record = std::move(record);
  int ended = 0;
  for (auto l = leases_.begin(); l != leases_.end();) {
    if (l->second.job == job) {
      for (uint64_t i : l->second.indices) j.leased[i] = false;
      leases_.erase(l++);
      ++ended;
    } else {
      ++l;
    }
  }
  j.open_leases = 0;
  j.returned.clear();
  spdlog::info(
      "job {}: cancelled with {} of {} games stored; {} lease(s) ended", job,
      j.done_count, j.record.requested(), ended);
  return StatusOf(j);
}

absl::StatusOr<absl::Duration> JobManager::Renew(const std::string& lease_id,
                                                 const std::string& worker) {
  absl::MutexLock lock(&mu_);
  QIPU_ASSIGN_OR_RETURN(auto it, FindLeaseLocked(lease_id));
  it->second.expires = absl::Now() + options_.lease_ttl;
  PersistLease(lease_id, it->second);
  return options_.lease_ttl;
}

absl::StatusOr<JobManager::Leases::iterator> JobManager::FindLeaseLocked(
    const std::string& id) {
  auto it = leases_.find(id);
  if (it == leases_.end()) {
    return absl::NotFoundError(
        absl::StrCat("lease ", base::QuoteInput(id), " is unknown or expired"));
  }
  return it;
}

void JobManager::ReleaseLeaseLocked(const std::string& id, LeaseState& lease) {
  auto jt = jobs_.find(lease.job);
  if (jt != jobs_.end()) {
    JobState& j = jt->second;
    for (uint64_t i : lease.indices) {
      j.leased[i] = false;
      if (!j.done[i] && !j.abandoned[i]) j.returned.push_back(i);
    }
    --j.open_leases;
  }
  DeleteLease(id, lease.job);
}

absl::Status JobManager::Return(const std::string& lease_id,
                                const std::string& worker) {
  absl::MutexLock lock(&mu_);
  QIPU_ASSIGN_OR_RETURN(auto it, FindLeaseLocked(lease_id));
  ReleaseLeaseLocked(it->first, it->second);
  leases_.erase(it);
  return absl::OkStatus();
}

int JobManager::ExpireLeases(absl::Time now) {
  absl::MutexLock lock(&mu_);
  int n = 0;
  for (auto it = leases_.begin(); it != leases_.end();) {
    if (it->second.expires < now) {
      spdlog::info("job {}: lease {} of {} expired", it->second.job, it->first,
                   it->second.worker);
      ReleaseLeaseLocked(it->first, it->second);
      leases_.erase(it++);
      ++n;
    } else {
      ++it;
    }
  }
  expired_ += n;
  return n;
}

absl::StatusOr<JobInfo> JobManager::Find(uint64_t job) const {
  absl::ReaderMutexLock lock(&mu_);
  auto it = jobs_.find(job);
  if (it == jobs_.end()) {
    return absl::NotFoundError(absl::StrCat("job ", job, " does not exist"));
  }
  JobInfo info;
  info.job = job;
  info.config = it->second.record.config();
  info.rules = it->second.rules;
  info.config_id = it->second.record.config_id();
  info.requested = it->second.record.requested();
  return info;
}

std::optional<bool> JobManager::IsStored(uint64_t job, uint64_t index) const {
  absl::ReaderMutexLock lock(&mu_);
  auto it = jobs_.find(job);
  if (it == jobs_.end() || index >= it->second.record.requested()) {
    return std::nullopt;
  }
  return static_cast<bool>(it->second.done[index]);
}

void JobManager::MarkStored(uint64_t job, uint64_t index) {
  absl::MutexLock lock(&mu_);
  auto it = jobs_.find(job);
  if (it == jobs_.end() || index >= it->second.record.requested()) return;
  JobState& j = it->second;
  if (!j.done[index]) {
    j.done[index] = true;
    ++j.done_count;
    if (j.abandoned[index]) {
      j.abandoned[index] = false;
      --j.abandoned_count;
    }
    if (Finished(j)) spdlog::info("job {}: done", job);
  }
}

void JobManager::MarkRejected(uint64_t job, uint64_t index,
                              const std::string& reason) {
  absl::MutexLock lock(&mu_);
  auto it = jobs_.find(job);
  if (it == jobs_.end() || index >= it->second.record.requested()) return;
  JobState& j = it->second;
  ++j.rejected_uploads;
  store::WriteSet batch(store_);
  batch.Merge(store::Records::kJobCounters,
              store::JobCounterKey(job, store::JobCounter::kRejected),
              store::EncodeUint64Value(1));
  if (!j.done[index] && !j.abandoned[index] &&
      ++j.rejections[index] >= options_.max_rejections) {
    j.abandoned[index] = true;
    ++j.abandoned_count;
    batch.Put(store::Records::kAbandoned, store::AbandonedKey(job, index),
              reason);
    spdlog::warn("job {}: game {} given up after {} rejections: {}", job, index,
                 options_.max_rejections, reason);
  }
  if (absl::Status s = store_->Commit(&batch); !s.ok()) {
    spdlog::error("job {}: recording a rejection: {}", job, s.ToString());
  }
}

qipu::v1::JobStatus JobManager::StatusOf(const JobState& j) const {
  qipu::v1::JobStatus s;
  s.set_job(j.record.job());
  *s.mutable_config() = j.record.config();
  s.set_requested(j.record.requested());
  s.set_done(j.done_count);
  s.set_rejected(j.rejected_uploads);
  s.set_state(j.record.cancelled_unix_micros() != 0
                  ? qipu::v1::JOB_STATE_CANCELLED
              : Finished(j) ? qipu::v1::JOB_STATE_DONE
                            : qipu::v1::JOB_STATE_RUNNING);
  s.set_open_leases(static_cast<uint32_t>(j.open_leases));
  s.set_created_unix_micros(j.record.created_unix_micros());
  return s;
}

absl::StatusOr<std::vector<qipu::v1::JobStatus>> JobManager::Status(
    uint64_t job) const {
  absl::ReaderMutexLock lock(&mu_);
  std::vector<qipu::v1::JobStatus> out;
  if (job != 0) {
    auto it = jobs_.find(job);
    if (it == jobs_.end()) {
      return absl::NotFoundError(absl::StrCat("job ", job, " does not exist"));
    }
    out.push_back(StatusOf(it->second));
    return out;
  }
  for (const auto& [id, j] : jobs_) out.push_back(StatusOf(j));
  return out;
}

int JobManager::open_leases() const {
  absl::ReaderMutexLock lock(&mu_);
  return static_cast<int>(leases_.size());
}

uint64_t JobManager::expired_leases() const {
  absl::ReaderMutexLock lock(&mu_);
  return expired_;
}

uint64_t JobManager::queued_games() const {
  absl::ReaderMutexLock lock(&mu_);
  uint64_t n = 0;
  for (const auto& [id, j] : jobs_) {
    if (!Closed(j)) {
      n += j.record.requested() - j.done_count - j.abandoned_count;
    }
  }
  return n;
}

}  // namespace qipu::engine

#include "worker/worker.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"

namespace qipu::worker {
namespace {

// Lease lifetime assumed when the coordinator does not say.
constexpr absl::Duration kDefaultTtl = absl::Seconds(30);

std::string DefaultName() {
  char host[256] = {0};
  if (::gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  return absl::StrCat(host[0] ? host : "worker", "-", ::getpid());
}

absl::Duration RenewInterval(absl::Duration ttl) {
  if (ttl <= absl::ZeroDuration()) ttl = kDefaultTtl;
  return std::max(ttl / 3, absl::Milliseconds(10));
}

}  // namespace

Worker::Worker(const WorkerOptions& options)
    : options_(options),
      name_(options.name.empty() ? DefaultName() : options.name) {
  seed_ = std::hash<std::string>{}(name_) ^
          (static_cast<uint64_t>(::getpid()) << 32) ^
          static_cast<uint64_t>(absl::ToUnixNanos(absl::Now()));
}

Worker::~Worker() {
  Stop(false);
  Wait().IgnoreError();
}

absl::Status Worker::Start() {
  if (options_.coordinator.empty()) {
    return absl::InvalidArgumentError("coordinator address not set");
  }
  if (options_.spool_dir.empty()) {
    return absl::InvalidArgumentError("spool directory not set");
  }
  if (options_.threads < 1 || options_.threads > 256) {
    return absl::InvalidArgumentError(
        absl::StrCat("threads must be in 1..256, not ", options_.threads));
  }
  absl::MutexLock lock(&mu_);
  if (started_) return absl::FailedPreconditionError("worker already started");
  if (!options_.ack_log.empty()) {
    absl::StatusOr<std::unique_ptr<AckLog>> log =
        AckLog::Open(options_.ack_log, name_);
    if (!log.ok()) return log.status();
    ack_log_ = *std::move(log);
  }
  SpoolOptions so;
  so.dir = options_.spool_dir;
  absl::StatusOr<std::unique_ptr<Spool>> spool = Spool::Open(so);
  if (!spool.ok()) return spool.status();
  spool_ = std::move(*spool);

  ClientOptions co;
  co.address = options_.coordinator;
  co.channel = options_.channel;
  co.tls = options_.tls;
  co.token = options_.token;
  co.worker = name_;
  co.job = options_.job;
  co.rpc_timeout = options_.rpc_timeout;
  co.max_reconnect_backoff = std::min(options_.backoff.max, absl::Seconds(5));
  client_ = std::make_unique<CoordinatorClient>(co);
  queue_ = std::make_unique<GameQueue>(options_.queue_games);
  UploaderOptions uo = options_.upload;
  uo.worker = name_;
  uo.seed = seed_ + 1;
  uo.ack_log = ack_log_.get();
  uploader_ = std::make_unique<Uploader>(
      uo, client_.get(), spool_.get(), queue_.get(),
      [this](const GameKey& key, const std::string& lease_id,
             qipu::v1::AckStatus) { OnAck(key, lease_id); });
  spdlog::info(
      "worker {}: coordinator {}, {} thread(s), spool {} ({} "
      "game(s) to resend){}",
      name_, options_.coordinator, options_.threads, options_.spool_dir,
      spool_->pending(),
      ack_log_ ? absl::StrCat(", acks logged to ", ack_log_->path()) : "");
  started_ = true;
  uploader_->Start();
  // Named for top -H and profilers (at most 15 characters).
  renew_thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "qipu-renew");
    RenewLoop();
  });
  lease_thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "qipu-lease");
    LeaseLoop();
  });
  return absl::OkStatus();
}

void Worker::Stop(bool graceful) {
  {
    absl::MutexLock lock(&mu_);
    if (!stop_) {
      stop_ = true;
      graceful_ = graceful;
    } else if (!graceful) {
      graceful_ = false;
    }
    for (GameRunner* runner : runners_) {
      runner->Stop(graceful_ ? StopMode::kFinishCurrent : StopMode::kAbandon);
    }
    if (uploader_ != nullptr) {
      if (graceful_) {
        uploader_->SpoolEverything();
      } else {
        uploader_->Stop(absl::Now());
      }
    }
    if (!started_ || done_) return;
  }
  // A LeaseWork or RenewLease in flight would otherwise hold the stop up
  // for up to rpc_timeout.
  client_->CancelCalls();
}

absl::Status Worker::Wait() {
  {
    absl::MutexLock lock(&mu_);
    if (!started_) return absl::OkStatus();
  }
  {
    absl::MutexLock lock(&join_mu_);
    if (!joined_) {
      lease_thread_.join();
      joined_ = true;
    }
  }
  absl::MutexLock lock(&mu_);
  return status_;
}

WorkerStats Worker::stats() const {
  absl::MutexLock lock(&mu_);
  WorkerStats s = stats_;
  if (uploader_ != nullptr) s.upload = uploader_->stats();
  if (spool_ != nullptr) s.spool = spool_->stats();
  return s;
}

bool Worker::SleepUnlessStopped(absl::Duration d) {
  absl::MutexLock lock(&mu_);
  mu_.AwaitWithTimeout(absl::Condition(&stop_), d);
  return stop_;
}

void Worker::LeaseLoop() {
  Backoff backoff(options_.backoff, seed_);
  absl::Time idle_since = absl::Now();
  auto idle_expired = [&] {
    return options_.exit_when_idle > absl::ZeroDuration() &&
           absl::Now() - idle_since >= options_.exit_when_idle &&
           uploader_->pending() == 0;
  };
  // The runner playing now, if any. The next lease is asked for while it
  // plays and its runner started as soon as this one has handed out its
  // last game: the playing threads never wait for a LeaseWork round trip
  // (about a millisecond, as long as a lease of 9x9 games takes to play).
  std::unique_ptr<Playing> playing;
  auto finish_playing = [&] {
    if (playing == nullptr) return;
    FinishRunner(std::move(playing));
    idle_since = absl::Now();
  };
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      if (stop_) break;
    }
    if (uploader_->pending() > options_.max_backlog) {
      // Uploads lag behind: let them catch up before playing more. A
      // short poll: the coordinator drains a backlog of max_backlog games
      // in tens of milliseconds, and a longer nap left it idle (qipu
      // local's games/s were one backlog per 100 ms nap).
      if (SleepUnlessStopped(absl::Milliseconds(5))) break;
      idle_since = absl::Now();
      continue;
    }
    absl::StatusOr<LeaseReply> r = client_->LeaseWork(options_.lease_games);
    bool stopping = false;
    {
      absl::MutexLock lock(&mu_);
      stopping = stop_;
    }
    if (stopping) {
      if (r.ok() && r->lease) Return(r->lease->lease_id, "stopping");
      break;
    }
    if (!r.ok()) {
      if (!IsTransient(r.status())) {
        spdlog::error("worker {}: LeaseWork refused, giving up: {}", name_,
                      r.status().ToString());
        absl::MutexLock lock(&mu_);
        status_ = r.status();
        stop_ = true;
        break;
      }
      // Play what is leased before waiting for the coordinator.
      if (playing != nullptr) {
        finish_playing();
        continue;
      }
      if (idle_expired()) {
        spdlog::info(
            "worker {}: no work for {} (coordinator unreachable); "
            "exiting",
            name_, absl::FormatDuration(options_.exit_when_idle));
        break;
      }
      const absl::Duration d = backoff.Next();
      spdlog::warn("worker {}: LeaseWork from {}: {}; retrying in {} ms", name_,
                   options_.coordinator, r.status().ToString(),
                   absl::ToInt64Milliseconds(d));
      if (SleepUnlessStopped(d)) break;
      continue;
    }
    backoff.Reset();
    if (!r->lease) {
      if (playing != nullptr) {
        finish_playing();
        continue;
      }
      if (idle_expired()) {
        spdlog::info("worker {}: no work for {}; exiting", name_,
                     absl::FormatDuration(options_.exit_when_idle));
        break;
      }
      absl::Duration d = r->retry_after;
      if (d <= absl::ZeroDuration()) d = absl::Milliseconds(500);
      if (SleepUnlessStopped(std::min(d, options_.max_idle_poll))) break;
      continue;
    }
    std::unique_ptr<Playing> next = TakeLease(std::move(*r->lease), r->ttl);
    if (next == nullptr) {
      SleepUnlessStopped(absl::Seconds(1));
      continue;
    }
    if (playing != nullptr) playing->runner->WaitAllTaken();
    next->start = absl::Now();
    next->runner->Start();
    finish_playing();
    playing = std::move(next);
    idle_since = absl::Now();
  }
  finish_playing();
  Shutdown();
}

std::unique_ptr<Worker::Playing> Worker::TakeLease(Lease work,
                                                   absl::Duration ttl) {
  const std::string id = work.lease_id;
  const uint64_t job = work.job;
  const size_t n = work.indices.size();
  const std::string shape = absl::StrCat(
      work.config.width(), "x", work.config.height(), " ",
      work.config.rules().preset(), " handicap ", work.config.handicap());
  GameRunnerOptions ro;
  ro.threads = options_.threads;
  ro.worker = name_;
  absl::StatusOr<std::unique_ptr<GameRunner>> runner =
      GameRunner::Create(ro, std::move(work), queue_.get());
  if (!runner.ok()) {
    spdlog::error(
        "worker {} lease {} job {}: cannot play it: {}; returning "
        "it",
        name_, id, job, runner.status().ToString());
    Return(id, "unplayable");
    return nullptr;
  }
  auto out = std::make_unique<Playing>();
  out->runner = std::move(*runner);
  {
    absl::MutexLock lock(&mu_);
    Held h;
    h.job = job;
    h.interval = RenewInterval(ttl);
    h.next_renew = absl::Now() + h.interval;
    h.games = n;
    held_[id] = h;
    ++stats_.leases;
    runners_.push_back(out->runner.get());
    if (stop_) {
      out->runner->Stop(graceful_ ? StopMode::kFinishCurrent
                                  : StopMode::kAbandon);
    }
  }
  spdlog::info("worker {} lease {} job {}: playing {} game(s), {}", name_, id,
               job, n, shape);
  return out;
}

void Worker::FinishRunner(std::unique_ptr<Playing> p) {
  const Lease& work = p->runner->work();
  const absl::Status s = p->runner->Wait();
  const size_t played = p->runner->queued();
  {
    absl::MutexLock lock(&mu_);
    runners_.erase(
        std::find(runners_.begin(), runners_.end(), p->runner.get()));
    if (auto it = held_.find(work.lease_id); it != held_.end()) {
      it->second.played = played;
      it->second.runner_done = true;
    }
    stats_.played += played;
  }
  spdlog::info("worker {} lease {} job {}: played {} of {} game(s) in {} ms{}",
               name_, work.lease_id, work.job, played, work.indices.size(),
               absl::ToInt64Milliseconds(absl::Now() - p->start),
               s.ok() ? "" : absl::StrCat(" (", s.ToString(), ")"));
}

void Worker::RenewLoop() {
  for (;;) {
    std::vector<std::string> to_return;
    std::vector<std::string> to_renew;
    {
      absl::MutexLock lock(&mu_);
      mu_.AwaitWithTimeout(absl::Condition(&renew_stop_),
                           absl::Milliseconds(100));
      if (renew_stop_) break;
    }
    // Every game handed to the uploader -- each played here, each left in
    // the spool by an earlier run -- ends up acked, or folded into a copy
    // still pending (already_pending): once the counts say so, the games
    // of every finished runner are settled, even those acked under
    // another lease's id. Counters only grow, and `played` is read after
    // them, so this never says "settled" too early.
    const UploaderStats u = uploader_->stats();
    const uint64_t settled =
        u.stored + u.duplicates + u.rejected + u.already_pending;
    const uint64_t recovered = spool_->stats().recovered;
    {
      absl::MutexLock lock(&mu_);
      if (renew_stop_) break;
      const bool uploaded_all = settled >= stats_.played + recovered;
      const absl::Time now = absl::Now();
      for (auto& [id, h] : held_) {
        if (h.runner_done && (h.acked >= h.played || uploaded_all)) {
          to_return.push_back(id);
        } else if (h.next_renew <= now) {
          to_renew.push_back(id);
          h.next_renew = now + h.interval;
        }
      }
    }
    for (const std::string& id : to_return) {
      Return(id, "done");
      absl::MutexLock lock(&mu_);
      held_.erase(id);
    }
    for (const std::string& id : to_renew) {
      absl::StatusOr<absl::Duration> r = client_->RenewLease(id);
      absl::MutexLock lock(&mu_);
      auto it = held_.find(id);
      if (it == held_.end()) continue;
      if (r.ok()) {
        it->second.interval = RenewInterval(*r);
        it->second.next_renew = absl::Now() + it->second.interval;
        continue;
      }
      if (IsTransient(r.status())) {
        spdlog::warn("worker {} lease {} job {}: renewal failed: {}", name_, id,
                     it->second.job, r.status().ToString());
        it->second.next_renew =
            absl::Now() + std::min(it->second.interval, absl::Seconds(1));
        continue;
      }
      // NOT_FOUND: the lease expired and its games may be handed to
      // another worker. Stop playing them; finished ones still upload.
      spdlog::warn("worker {} lease {} job {}: lost ({}); stopping its games",
                   name_, id, it->second.job, r.status().ToString());
      ++stats_.leases_lost;
      for (GameRunner* runner : runners_) {
        if (runner->work().lease_id == id) {
          runner->Stop(StopMode::kFinishCurrent);
        }
      }
      held_.erase(it);
    }
  }
}

void Worker::OnAck(const GameKey& key, const std::string& lease_id) {
  absl::MutexLock lock(&mu_);
  if (auto it = held_.find(lease_id); it != held_.end()) ++it->second.acked;
}

void Worker::Return(const std::string& lease_id, const char* why) {
  const absl::Status s = client_->ReturnLease(lease_id);
  bool stopping = false;
  {
    absl::MutexLock lock(&mu_);
    stopping = stop_;
  }
  if (s.ok() || absl::IsNotFound(s)) {
    spdlog::debug("worker {} lease {}: returned ({})", name_, lease_id, why);
  } else if (stopping && absl::IsCancelled(s)) {
    // Stop() cancelled the call; an unreturned lease just expires.
    spdlog::debug("worker {} lease {}: return cancelled by the stop ({})",
                  name_, lease_id, why);
  } else {
    spdlog::warn("worker {} lease {}: return failed ({}): {}", name_, lease_id,
                 why, s.ToString());
  }
}

void Worker::Shutdown() {
  bool graceful = true;
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
    graceful = graceful_;
  }
  uploader_->Stop(graceful ? absl::Now() + options_.drain_timeout
                           : absl::Now());
  uploader_->Wait();
  {
    absl::MutexLock lock(&mu_);
    renew_stop_ = true;
  }
  renew_thread_.join();
  std::vector<std::string> held;
  {
    absl::MutexLock lock(&mu_);
    graceful = graceful_;
    for (const auto& [id, h] : held_) held.push_back(id);
    held_.clear();
  }
  if (graceful) {
    for (const std::string& id : held) Return(id, "stopping");
  }
  std::unique_ptr<Uploader> uploader;
  std::unique_ptr<Spool> spool;
  WorkerStats s;
  {
    absl::MutexLock lock(&mu_);
    stats_.upload = uploader_->stats();
    stats_.spool = spool_->stats();
    s = stats_;
    uploader = std::move(uploader_);
    spool = std::move(spool_);
  }
  uploader.reset();
  spool.reset();
  spdlog::info(
      "worker {}: stopped; {} lease(s), {} game(s) played, {} "
      "stored, {} duplicate, {} rejected, {} left in the spool",
      name_, s.leases, s.played, s.upload.stored, s.upload.duplicates,
      s.upload.rejected, s.spool.pending);
  absl::MutexLock lock(&mu_);
  done_ = true;
}

}  // namespace qipu::worker

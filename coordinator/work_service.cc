#include "coordinator/work_service.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "base/grpc_status.h"
#include "base/raw_stream.h"
#include "engine/prepare.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {

using base::ToGrpc;

// The acks of one upload stream, in arrival order. Slots are reserved as
// games arrive and filled as their outcomes become known; the writer sends
// filled slots from the front.
class WorkServiceImpl::AckQueue {
 public:
  struct Slot {
    qipu::v1::GameAck ack;
    bool ready = false;
    // A storage failure: stop the stream.
    bool failed = false;
    absl::Time received;
  };

  explicit AckQueue(int window) : window_(window) {}

  // Blocks while the window is full; returns the slot's sequence number,
  // or -1 once the stream has failed.
  int64_t Reserve(uint64_t seq) {
    absl::MutexLock lock(&mu_);
    auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return failed_ || static_cast<int>(slots_.size()) < window_;
    };
    mu_.Await(absl::Condition(&room));
    return failed_ ? -1 : Append(seq);
  }

  // Reserve() without blocking: -2 when the window is full.
  int64_t TryReserve(uint64_t seq) {
    absl::MutexLock lock(&mu_);
    if (failed_) return -1;
    if (static_cast<int>(slots_.size()) >= window_) return -2;
    return Append(seq);
  }

  void Fill(int64_t n, qipu::v1::AckStatus status, std::string reason,
            std::string game_id, bool failed = false) {
    absl::MutexLock lock(&mu_);
    Slot& s = slots_[n - first_];
    s.ack.set_status(status);
    s.ack.set_reason(std::move(reason));
    s.ack.set_game_id(std::move(game_id));
    s.failed = failed;
    s.ready = true;
  }

  // Waits for the front slot to be ready, then moves it and every ready
  // slot after it (up to `max`) to *out. False when closed and drained,
  // or after a failure (a slot filled as failed).
  bool PopReady(size_t max, std::vector<Slot>* out) {
    absl::MutexLock lock(&mu_);
    auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return (!slots_.empty() && slots_.front().ready) ||
             (closed_ && slots_.empty()) || failed_;
    };
    mu_.Await(absl::Condition(&ready));
    if (failed_ || slots_.empty()) return false;
    size_t n = 0;
    while (n < max && !slots_.empty() && slots_.front().ready) {
      if (slots_.front().failed) {
        // Send what came before the failure first, then the failed slot's
        // NOT_STORED ack (with the cause) as the stream's last.
        if (n > 0) break;
        failed_ = true;
        out->push_back(std::move(slots_.front()));
        slots_.pop_front();
        ++first_;
        return true;
      }
      out->push_back(std::move(slots_.front()));
      slots_.pop_front();
      ++first_;
      ++n;
    }
    return true;
  }

  void Close() {
    absl::MutexLock lock(&mu_);
    closed_ = true;
  }
  // Waits until every reserved slot is filled (callbacks hold pointers).
  void WaitFilled() {
    absl::MutexLock lock(&mu_);
    auto filled = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      for (const Slot& s : slots_) {
        if (!s.ready) return false;
      }
      return true;
    };
    mu_.Await(absl::Condition(&filled));
  }
  void Fail() {
    absl::MutexLock lock(&mu_);
    failed_ = true;
  }
  // Waits until every reserved slot has been taken by the writer (or the
  // stream failed), or until `deadline`.
  void WaitSent(absl::Time deadline) {
    absl::MutexLock lock(&mu_);
    auto sent = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return slots_.empty() || failed_;
    };
    mu_.AwaitWithDeadline(absl::Condition(&sent), deadline);
  }
  bool failed() const {
    absl::MutexLock lock(&mu_);
    return failed_;
  }

 private:
  // A new slot for `seq` at the back; returns its sequence number.
  int64_t Append(uint64_t seq) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    Slot s;
    s.ack.set_seq(seq);
    s.received = absl::Now();
    slots_.push_back(std::move(s));
    return next_++;
  }

  const int window_;
  mutable absl::Mutex mu_;
  std::deque<Slot> slots_ ABSL_GUARDED_BY(mu_);
  int64_t first_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t next_ ABSL_GUARDED_BY(mu_) = 0;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool failed_ ABSL_GUARDED_BY(mu_) = false;
};

grpc::Status JobServiceImpl::SubmitJob(grpc::ServerContext* ctx,
                                       const qipu::v1::SubmitJobRequest* req,
                                       qipu::v1::SubmitJobResponse* resp) {
  auto job = jobs_->Submit(req->games(), req->config());
  if (!job.ok()) return ToGrpc(job.status());
  resp->set_job(*job);
  return grpc::Status::OK;
}

grpc::Status JobServiceImpl::GetJobStatus(
    grpc::ServerContext* ctx, const qipu::v1::GetJobStatusRequest* req,
    qipu::v1::GetJobStatusResponse* resp) {
  auto st = jobs_->Status(req->job());
  if (!st.ok()) return ToGrpc(st.status());
  for (auto& s : *st) *resp->add_jobs() = std::move(s);
  return grpc::Status::OK;
}

grpc::Status JobServiceImpl::CancelJob(grpc::ServerContext* ctx,
                                       const qipu::v1::CancelJobRequest* req,
                                       qipu::v1::CancelJobResponse* resp) {
  if (req->job() == 0) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "job: the id of the job to cancel is required");
  }
  auto st = jobs_->Cancel(req->job());
  if (!st.ok()) return ToGrpc(st.status());
  *resp->mutable_job() = std::move(*st);
  return grpc::Status::OK;
}

grpc::Status WorkServiceImpl::LeaseWork(grpc::ServerContext* ctx,
                                        const qipu::v1::LeaseWorkRequest* req,
                                        qipu::v1::LeaseWorkResponse* resp) {
  if (req->worker().empty() || req->worker().size() > 200) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "worker: a name of 1..200 characters is required");
  }
  auto lease = jobs_->Grant(req->worker(), req->max_games(), req->job());
  if (!lease.ok()) return ToGrpc(lease.status());
  if (!lease->has_value()) {
    resp->set_retry_after_ms(static_cast<uint32_t>(options_.retry_after_ms));
    return grpc::Status::OK;
  }
  const engine::Lease& l = **lease;
  resp->set_lease_id(l.id);
  resp->set_job(l.job);
  *resp->mutable_config() = l.config;
  for (uint64_t i : l.indices) resp->add_indices(i);
  resp->set_ttl_ms(static_cast<uint32_t>(absl::ToInt64Milliseconds(l.ttl)));
  return grpc::Status::OK;
}

grpc::Status WorkServiceImpl::RenewLease(grpc::ServerContext* ctx,
                                         const qipu::v1::RenewLeaseRequest* req,
                                         qipu::v1::RenewLeaseResponse* resp) {
  auto ttl = jobs_->Renew(req->lease_id(), req->worker());
  if (!ttl.ok()) return ToGrpc(ttl.status());
  resp->set_ttl_ms(static_cast<uint32_t>(absl::ToInt64Milliseconds(*ttl)));
  return grpc::Status::OK;
}

grpc::Status WorkServiceImpl::ReturnLease(
    grpc::ServerContext* ctx, const qipu::v1::ReturnLeaseRequest* req,
    qipu::v1::ReturnLeaseResponse* resp) {
  return ToGrpc(jobs_->Return(req->lease_id(), req->worker()));
}

// Most acks in one batched GameAck message.
constexpr size_t kMaxAcksPerMessage = 1024;

namespace {

grpc::Status ShuttingDown() {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                      "the coordinator is shutting down; resend "
                      "unacknowledged games later");
}

int ValidateThreads(int requested) {
  if (requested >= 0) return requested;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(cores - 1, 0, 15);
}

// What validation said about one uploaded game.
struct Checked {
  absl::StatusOr<engine::PreparedGame> game = absl::UnknownError("not checked");
  // The game names a job of this coordinator (so a refusal counts against
  // the job).
  bool known_job = false;
};

// The jobs a run of uploaded games names, each looked up once for the
// run: a JobInfo is a copy of the job's configuration, and copying it for
// every game cost the handler a lock and a few allocations per game.
class RunJobs {
 public:
  // Forgets the jobs of the previous run.
  void Clear() { jobs_.clear(); }
  // Looks `job` up in `jobs` unless this run already did.
  void Add(const engine::JobManager& jobs, uint64_t job) {
    for (const auto& [id, info] : jobs_) {
      if (id == job) return;
    }
    jobs_.emplace_back(job, jobs.Find(job));
  }
  // What Add() found for `job`. Precondition: Add(.., job) since Clear().
  const absl::StatusOr<engine::JobInfo>& Get(uint64_t job) const {
    for (const auto& [id, info] : jobs_) {
      if (id == job) return info;
    }
    return not_added_;
  }

 private:
  // Few: a worker's games are of one job or two.
  std::vector<std::pair<uint64_t, absl::StatusOr<engine::JobInfo>>> jobs_;
  const absl::StatusOr<engine::JobInfo> not_added_ =
      absl::InternalError("job not looked up");
};

// Validates one uploaded game (replays it) against its job's `info`.
// Thread-safe.
Checked Check(const absl::StatusOr<engine::JobInfo>& info,
              const qipu::v1::Game& game, absl::Time now) {
  Checked c;
  if (!info.ok()) {
    c.game = info.status();
    return c;
  }
  c.known_job = true;
  c.game = engine::PrepareSelfPlay(game, *info, now);
  return c;
}

}  // namespace

// Position of UploadGames among WorkService's methods in work.proto.
constexpr int kUploadGamesMethod = 3;

WorkServiceImpl::WorkServiceImpl(engine::JobManager* jobs,
                                 engine::Ingestor* ingest, Metrics* metrics,
                                 const WorkServiceOptions& options)
    : jobs_(jobs),
      ingest_(ingest),
      metrics_(metrics),
      options_(options),
      pool_(ValidateThreads(options.validate_threads), "qipu-validate") {
  MarkMethodStreamed(kUploadGamesMethod,
                     base::NewRawBidiHandler([this](grpc::ServerContext* ctx,
                                                    base::RawServerStream* s) {
                       return UploadGames(ctx, s);
                     }));
}

grpc::Status WorkServiceImpl::UploadGames(
    grpc::ServerContext* ctx,
    grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>* stream) {
  auto slot = AcquireStream(options_.streams, ctx->peer(), "upload");
  if (!slot.ok()) return ToGrpc(slot.status());
  AckQueue acks(options_.upload_window);
  {
    absl::MutexLock lock(&streams_mu_);
    if (draining_) return ShuttingDown();
    streams_[ctx] = &acks;
  }
  Metrics* metrics = metrics_;
  // Set by the reader before it reserves the slots of the stream's first
  // batched upload; from then on acks go out batched.
  std::atomic<bool> batched{false};
  std::thread writer([&] {
    std::vector<AckQueue::Slot> ready;
    qipu::v1::GameAck message;
    while (acks.PopReady(kMaxAcksPerMessage, &ready)) {
      const absl::Time now = absl::Now();
      if (metrics != nullptr) {
        for (const AckQueue::Slot& slot : ready) {
          metrics->ingest_latency().Observe(
              absl::ToDoubleSeconds(now - slot.received));
        }
      }
      const bool as_batch = batched.load(std::memory_order_acquire);
      bool ok = true;
      for (size_t i = 0; ok && i < ready.size(); ++i) {
        if (as_batch) {
          *message.add_batch() = std::move(ready[i].ack);
          if (i + 1 < ready.size()) continue;
        } else {
          message = std::move(ready[i].ack);
        }
        grpc::ByteBuffer bytes;
        bool own = false;
        ok = grpc::SerializationTraits<qipu::v1::GameAck>::Serialize(
                 message, &bytes, &own)
                 .ok() &&
             stream->Write(bytes);
        message.Clear();
      }
      ready.clear();
      if (!ok) {
        acks.Fail();
        break;
      }
    }
    if (acks.failed()) ctx->TryCancel();
  });

  // Valid games of the current message, handed to the ingestor together.
  std::vector<engine::Ingestor::Submission> valid;
  auto flush = [&] {
    if (!valid.empty()) ingest_->SubmitBatch(&valid);
  };
  // The games of the current message and, for a run of them, their ack
  // slots and what validation said.
  std::vector<const qipu::v1::GameUpload*> games;
  std::vector<int64_t> slots;
  std::vector<Checked> checked;
  RunJobs run_jobs;
  // Hands one validated game on: to the ingestor, or refused.
  auto deliver = [&](const qipu::v1::GameUpload& up, int64_t slot, Checked& c) {
    const uint64_t job = up.game().provenance().job();
    const uint64_t index = up.game().provenance().game_index();
    std::string id = absl::StrCat("s", job, "-", index);
    if (!c.game.ok()) {
      const std::string reason(c.game.status().message());
      if (c.known_job) {
        spdlog::warn("job {}: game {} from {} rejected: {}", job, index,
                     up.game().provenance().worker(), reason);
        jobs_->MarkRejected(job, index, reason);
      }
      if (metrics_ != nullptr) metrics_->games_rejected().Increment();
      acks.Fill(slot, qipu::v1::ACK_STATUS_REJECTED, reason, std::move(id));
      return;
    }
    valid.push_back(engine::Ingestor::Submission{
        std::move(*c.game),
        [&acks, slot, id = std::move(id),
         metrics](absl::StatusOr<engine::IngestOutcome> r) mutable {
          if (!r.ok()) {
            acks.Fill(slot, qipu::v1::ACK_STATUS_NOT_STORED,
                      absl::StrCat("not stored, resend later: ",
                                   r.status().message()),
                      std::move(id), true);
            return;
          }
          const bool stored = *r == engine::IngestOutcome::kStored;
          if (metrics != nullptr) {
            (stored ? metrics->games_accepted() : metrics->games_duplicate())
                .Increment();
          }
          acks.Fill(slot,
                    stored ? qipu::v1::ACK_STATUS_STORED
                           : qipu::v1::ACK_STATUS_DUPLICATE,
                    "", std::move(id));
        }});
  };
  // Validates and hands on the games of the current message, in order;
  // false when the stream is over (failed). Each run of games that fits
  // the window is validated in parallel on the pool; when the window is
  // full, what is held back reaches the ingestor first, or the acks that
  // would open the window never come.
  auto accept_all = [&]() {
    const absl::Time now = absl::Now();
    size_t i = 0;
    while (i < games.size()) {
      slots.clear();
      size_t j = i;
      for (; j < games.size(); ++j) {
        const int64_t slot = acks.TryReserve(games[j]->seq());
        if (slot == -2) break;
        if (slot < 0) {
          // The stream failed: the slots of this run never reach the
          // ingestor, so fill them here (WaitFilled() waits for every
          // reserved slot).
          for (const int64_t s : slots) {
            acks.Fill(s, qipu::v1::ACK_STATUS_NOT_STORED,
                      "not stored, resend later: the stream failed", "", true);
          }
          return false;
        }
        slots.push_back(slot);
      }
      if (j == i) {
        flush();
        const int64_t slot = acks.Reserve(games[i]->seq());
        if (slot < 0) return false;
        slots.push_back(slot);
        j = i + 1;
      }
      checked.clear();
      checked.resize(j - i);
      run_jobs.Clear();
      for (size_t k = i; k < j; ++k) {
        run_jobs.Add(*jobs_, games[k]->game().provenance().job());
      }
      pool_.ParallelFor(j - i, [&](size_t k) {
        const qipu::v1::Game& g = games[i + k]->game();
        checked[k] = Check(run_jobs.Get(g.provenance().job()), g, now);
      });
      for (size_t k = 0; k < j - i; ++k) {
        deliver(*games[i + k], slots[k], checked[k]);
      }
      i = j;
    }
    return true;
  };

  qipu::v1::GameUpload up;
  grpc::ByteBuffer frame;
  std::string bad_frame;
  for (int64_t frames = 1;
       !acks.failed() && !draining() && stream->Read(&frame); ++frames) {
    const size_t bytes = frame.Length();
    const grpc::Status parsed =
        grpc::SerializationTraits<qipu::v1::GameUpload>::Deserialize(&frame,
                                                                     &up);
    if (!parsed.ok()) {
      bad_frame = absl::StrCat(
          "upload message ", frames, " of the stream (", bytes,
          " bytes) is not a qipu.v1.GameUpload: ", parsed.error_message());
      break;
    }
    games.clear();
    if (up.batch_size() == 0) {
      games.push_back(&up);
    } else {
      if (up.has_game() || up.seq() != 0 || !up.lease_id().empty()) {
        bad_frame = absl::StrCat(
            "upload message ", frames,
            " of the stream mixes the single form (lease_id, game, seq) "
            "with the batched form (batch)");
        break;
      }
      batched.store(true, std::memory_order_release);
      for (int i = 0; i < up.batch_size(); ++i) {
        if (up.batch(i).batch_size() != 0) {
          bad_frame = absl::StrCat("upload message ", frames,
                                   " of the stream: batch entry ", i + 1,
                                   " is itself a batch");
          break;
        }
        games.push_back(&up.batch(i));
      }
    }
    // The games before a bad batch entry are still taken (and acked).
    const bool live = accept_all();
    flush();
    if (!live || !bad_frame.empty()) break;
  }
  flush();
  acks.Close();
  acks.WaitFilled();
  writer.join();
  bool drained = false;
  {
    // Waits for a Drain() that holds this stream.
    absl::MutexLock lock(&streams_mu_);
    streams_.erase(ctx);
    drained = draining_;
  }
  if (!bad_frame.empty()) {
    spdlog::warn("upload stream from {}: {}", ctx->peer(), bad_frame);
    if (metrics_ != nullptr) metrics_->games_rejected().Increment();
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, bad_frame);
  }
  if (drained) return ShuttingDown();
  if (acks.failed()) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                        "storage failed or the stream broke; resend "
                        "unacknowledged games");
  }
  return grpc::Status::OK;
}

void WorkServiceImpl::Drain(absl::Time deadline) {
  absl::MutexLock lock(&streams_mu_);
  if (draining_) return;
  draining_ = true;
  draining_flag_.store(true, std::memory_order_release);
  // Holding streams_mu_ keeps every listed stream (and its ack queue)
  // alive: a handler unregisters under it before returning.
  for (const auto& [ctx, acks] : streams_) {
    acks->WaitSent(deadline);
    ctx->TryCancel();
  }
  spdlog::info("upload streams drained: {} ended", streams_.size());
}

}  // namespace qipu::coordinator

#include "coordinator/work_service.h"

#include <deque>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "coordinator/grpc_status.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "grpcpp/support/method_handler.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {
namespace {

// The acks of one upload stream, in arrival order. Slots are reserved as
// games arrive and filled as their outcomes become known; the writer sends
// filled slots from the front.
class AckQueue {
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
    if (failed_) return -1;
    Slot s;
    s.ack.set_seq(seq);
    s.received = absl::Now();
    slots_.push_back(std::move(s));
    return next_++;
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

  // Waits for the front slot to be ready; false when closed and drained,
  // or after a failure.
  bool Pop(Slot* out) {
    absl::MutexLock lock(&mu_);
    auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return (!slots_.empty() && slots_.front().ready) ||
             (closed_ && slots_.empty()) || failed_;
    };
    mu_.Await(absl::Condition(&ready));
    if (failed_ || slots_.empty()) return false;
    *out = std::move(slots_.front());
    slots_.pop_front();
    ++first_;
    if (out->failed) failed_ = true;
    return !out->failed;
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
  bool failed() const {
    absl::MutexLock lock(&mu_);
    return failed_;
  }

 private:
  const int window_;
  mutable absl::Mutex mu_;
  std::deque<Slot> slots_ ABSL_GUARDED_BY(mu_);
  int64_t first_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t next_ ABSL_GUARDED_BY(mu_) = 0;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool failed_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace

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

grpc::Status WorkServiceImpl::LeaseWork(grpc::ServerContext* ctx,
                                        const qipu::v1::LeaseWorkRequest* req,
                                        qipu::v1::LeaseWorkResponse* resp) {
  if (req->worker().empty() || req->worker().size() > 200) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "worker: a name of 1..200 characters is required");
  }
  auto lease = jobs_->Grant(req->worker(), req->max_games());
  if (!lease.ok()) return ToGrpc(lease.status());
  if (!lease->has_value()) {
    resp->set_retry_after_ms(static_cast<uint32_t>(options_.retry_after_ms));
    return grpc::Status::OK;
  }
  const Lease& l = **lease;
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

// Position of UploadGames among WorkService's methods in work.proto.
constexpr int kUploadGamesMethod = 3;

WorkServiceImpl::WorkServiceImpl(JobManager* jobs, Ingestor* ingest,
                                 Metrics* metrics,
                                 const WorkServiceOptions& options)
    : jobs_(jobs), ingest_(ingest), metrics_(metrics), options_(options) {
  using Stream = grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>;
  MarkMethodStreamed(
      kUploadGamesMethod,
      new grpc::internal::BidiStreamingHandler<
          WorkServiceImpl, grpc::ByteBuffer, grpc::ByteBuffer>(
          [](WorkServiceImpl* service, grpc::ServerContext* ctx,
             Stream* stream) { return service->UploadGames(ctx, stream); },
          this));
}

grpc::Status WorkServiceImpl::UploadGames(
    grpc::ServerContext* ctx,
    grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>* stream) {
  AckQueue acks(options_.upload_window);
  Metrics* metrics = metrics_;
  std::thread writer([&] {
    AckQueue::Slot slot;
    while (acks.Pop(&slot)) {
      if (metrics != nullptr) {
        metrics->ingest_latency().Observe(
            absl::ToDoubleSeconds(absl::Now() - slot.received));
      }
      grpc::ByteBuffer bytes;
      bool own = false;
      if (!grpc::SerializationTraits<qipu::v1::GameAck>::Serialize(slot.ack,
                                                                   &bytes, &own)
               .ok() ||
          !stream->Write(bytes)) {
        acks.Fail();
        break;
      }
    }
    if (acks.failed()) ctx->TryCancel();
  });

  qipu::v1::GameUpload up;
  grpc::ByteBuffer frame;
  std::string bad_frame;
  for (int64_t frames = 1; !acks.failed() && stream->Read(&frame); ++frames) {
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
    const int64_t slot = acks.Reserve(up.seq());
    if (slot < 0) break;
    const uint64_t job = up.game().provenance().job();
    const uint64_t index = up.game().provenance().game_index();
    const std::string id = absl::StrCat("s", job, "-", index);
    auto info = jobs_->Find(job);
    if (!info.ok()) {
      if (metrics_ != nullptr) metrics_->games_rejected().Increment();
      acks.Fill(slot, qipu::v1::ACK_STATUS_REJECTED,
                std::string(info.status().message()), id);
      continue;
    }
    auto prepared = PrepareSelfPlay(up.game(), *info, absl::Now());
    if (!prepared.ok()) {
      const std::string reason(prepared.status().message());
      spdlog::warn("job {}: game {} from {} rejected: {}", job, index,
                   up.game().provenance().worker(), reason);
      if (metrics_ != nullptr) metrics_->games_rejected().Increment();
      jobs_->MarkRejected(job, index, reason);
      acks.Fill(slot, qipu::v1::ACK_STATUS_REJECTED, reason, id);
      continue;
    }
    ingest_->Submit(std::move(*prepared), [&acks, slot, id, metrics](
                                              absl::StatusOr<IngestOutcome> r) {
      if (!r.ok()) {
        acks.Fill(slot, qipu::v1::ACK_STATUS_UNSPECIFIED,
                  std::string(r.status().message()), id, true);
        return;
      }
      const bool stored = *r == IngestOutcome::kStored;
      if (metrics != nullptr) {
        (stored ? metrics->games_accepted() : metrics->games_duplicate())
            .Increment();
      }
      acks.Fill(
          slot,
          stored ? qipu::v1::ACK_STATUS_STORED : qipu::v1::ACK_STATUS_DUPLICATE,
          "", id);
    });
  }
  acks.Close();
  acks.WaitFilled();
  writer.join();
  if (!bad_frame.empty()) {
    spdlog::warn("upload stream from {}: {}", ctx->peer(), bad_frame);
    if (metrics_ != nullptr) metrics_->games_rejected().Increment();
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, bad_frame);
  }
  if (acks.failed()) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                        "storage failed or the stream broke; resend "
                        "unacknowledged games");
  }
  return grpc::Status::OK;
}

}  // namespace qipu::coordinator

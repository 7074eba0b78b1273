#include "coordinator/work_service.h"

#include <algorithm>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "base/grpc_status.h"
#include "base/raw_stream.h"
#include "coordinator/upload_stream.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {

using base::ToGrpc;

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

namespace {

int ValidateThreads(int requested) {
  if (requested >= 0) return requested;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(cores - 1, 0, 15);
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
  UploadStream upload(UploadStreamDeps{.jobs = jobs_,
                                       .ingest = ingest_,
                                       .metrics = metrics_,
                                       .pool = &pool_,
                                       .window = options_.upload_window,
                                       .draining = &draining_flag_},
                      ctx, stream);
  {
    absl::MutexLock lock(&streams_mu_);
    if (draining_) return UploadShuttingDown();
    streams_[ctx] = &upload;
  }
  upload.Run();
  bool drained = false;
  {
    // Waits for a Drain() that holds this stream.
    absl::MutexLock lock(&streams_mu_);
    streams_.erase(ctx);
    drained = draining_;
  }
  return upload.Result(drained);
}

void WorkServiceImpl::Drain(absl::Time deadline) {
  absl::MutexLock lock(&streams_mu_);
  if (draining_) return;
  draining_ = true;
  draining_flag_.store(true, std::memory_order_release);
  // Holding streams_mu_ keeps every listed stream alive: a handler
  // unregisters under it before returning.
  for (const auto& [ctx, upload] : streams_) {
    upload->WaitSent(deadline);
    ctx->TryCancel();
  }
  spdlog::info("upload streams drained: {} ended", streams_.size());
}

}  // namespace qipu::coordinator

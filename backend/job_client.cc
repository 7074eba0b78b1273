#include "backend/job_client.h"

#include <utility>

#include "base/channel.h"
#include "base/grpc_status.h"

namespace qipu::backend {

absl::StatusOr<std::unique_ptr<JobClient>> JobClient::Open(const Target& t) {
  if (absl::Status s = ValidateTarget(t); !s.ok()) return s;
  std::unique_ptr<JobClient> c(new JobClient());
  c->target_ = t;
  if (!t.server.empty()) {
    c->stub_ = qipu::v1::JobService::NewStub(
        base::Dial(t.server, ChannelOptionsOf(t)));
    return c;
  }
  auto db = engine::Engine::Open(t.db);
  if (!db.ok()) return db.status();
  c->db_ = *std::move(db);
  auto jobs = c->db_->jobs();
  if (!jobs.ok()) return jobs.status();
  c->jobs_ = *jobs;
  return c;
}

absl::StatusOr<uint64_t> JobClient::Submit(
    const qipu::v1::SubmitJobRequest& req) {
  if (stub_ == nullptr) {
    return absl::FailedPreconditionError(
        "jobs are submitted to a running coordinator (--server HOST:PORT); "
        "qipu local plays one on this machine");
  }
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, target_.timeout);
  qipu::v1::SubmitJobResponse resp;
  if (absl::Status s = base::FromGrpc(stub_->SubmitJob(&ctx, req, &resp));
      !s.ok()) {
    return WithServerHint(std::move(s), target_.server);
  }
  return resp.job();
}

absl::StatusOr<std::vector<qipu::v1::JobStatus>> JobClient::Status(
    uint64_t job) {
  if (jobs_ != nullptr) return jobs_->Status(job);
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, target_.timeout);
  qipu::v1::GetJobStatusRequest req;
  req.set_job(job);
  qipu::v1::GetJobStatusResponse resp;
  if (absl::Status s = base::FromGrpc(stub_->GetJobStatus(&ctx, req, &resp));
      !s.ok()) {
    return WithServerHint(std::move(s), target_.server);
  }
  return std::vector<qipu::v1::JobStatus>(resp.jobs().begin(),
                                          resp.jobs().end());
}

absl::StatusOr<qipu::v1::JobStatus> JobClient::Cancel(uint64_t job) {
  if (jobs_ != nullptr) return jobs_->Cancel(job);
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, target_.timeout);
  qipu::v1::CancelJobRequest req;
  req.set_job(job);
  qipu::v1::CancelJobResponse resp;
  if (absl::Status s = base::FromGrpc(stub_->CancelJob(&ctx, req, &resp));
      !s.ok()) {
    return WithServerHint(std::move(s), target_.server);
  }
  return resp.job();
}

}  // namespace qipu::backend

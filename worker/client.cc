#include "worker/client.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "base/channel.h"
#include "base/grpc_status.h"

namespace qipu::worker {

bool IsTransient(const absl::Status& s) {
  switch (s.code()) {
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kDeadlineExceeded:
    case absl::StatusCode::kResourceExhausted:
    case absl::StatusCode::kAborted:
    case absl::StatusCode::kCancelled:
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnknown:
      return true;
    default:
      return false;
  }
}

class CoordinatorClient::CallScope {
 public:
  CallScope(CoordinatorClient* client, grpc::ClientContext* ctx)
      : client_(client), ctx_(ctx) {
    ctx->set_deadline(std::chrono::system_clock::now() +
                      absl::ToChronoMilliseconds(client->options_.rpc_timeout));
    // Wait (up to the deadline) for a connection rather than failing at
    // once while the channel is reconnecting: a call in flight is what
    // makes gRPC notice at once that a restarted coordinator is back.
    ctx->set_wait_for_ready(true);
    absl::MutexLock lock(&client_->mu_);
    client_->calls_.insert(ctx_);
  }
  ~CallScope() {
    absl::MutexLock lock(&client_->mu_);
    client_->calls_.erase(ctx_);
  }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  CoordinatorClient* client_;
  grpc::ClientContext* ctx_;
};

namespace {

// Full name of WorkService.UploadGames (gRPC's "/package.Service/Method").
constexpr char kUploadGamesMethod[] = "/qipu.v1.WorkService/UploadGames";

std::shared_ptr<grpc::Channel> MakeChannel(const ClientOptions& options) {
  if (options.channel != nullptr) return options.channel;
  base::ChannelOptions co;
  co.max_reconnect_backoff = options.max_reconnect_backoff;
  co.tls = options.tls;
  co.token = options.token;
  return base::Dial(options.address, co);
}

}  // namespace

CoordinatorClient::CoordinatorClient(const ClientOptions& options)
    : options_(options),
      channel_(MakeChannel(options)),
      stub_(qipu::v1::WorkService::NewStub(channel_)),
      upload_method_(channel_, kUploadGamesMethod) {}

std::unique_ptr<CoordinatorClient::UploadStream> CoordinatorClient::UploadGames(
    grpc::ClientContext* ctx) {
  return upload_method_.Open(ctx);
}

absl::StatusOr<LeaseReply> CoordinatorClient::LeaseWork(uint32_t max_games) {
  qipu::v1::LeaseWorkRequest req;
  req.set_worker(options_.worker);
  req.set_max_games(max_games);
  req.set_job(options_.job);
  qipu::v1::LeaseWorkResponse resp;
  grpc::ClientContext ctx;
  grpc::Status s;
  {
    CallScope scope(this, &ctx);
    s = stub_->LeaseWork(&ctx, req, &resp);
  }
  if (!s.ok()) return base::FromGrpc(s);
  LeaseReply reply;
  reply.ttl = absl::Milliseconds(resp.ttl_ms());
  reply.retry_after = absl::Milliseconds(resp.retry_after_ms());
  if (!resp.lease_id().empty()) {
    Lease w;
    w.lease_id = resp.lease_id();
    w.job = resp.job();
    w.config = std::move(*resp.mutable_config());
    w.indices.assign(resp.indices().begin(), resp.indices().end());
    reply.lease = std::move(w);
  }
  return reply;
}

absl::StatusOr<absl::Duration> CoordinatorClient::RenewLease(
    const std::string& lease_id) {
  qipu::v1::RenewLeaseRequest req;
  req.set_lease_id(lease_id);
  req.set_worker(options_.worker);
  qipu::v1::RenewLeaseResponse resp;
  grpc::ClientContext ctx;
  grpc::Status s;
  {
    CallScope scope(this, &ctx);
    s = stub_->RenewLease(&ctx, req, &resp);
  }
  if (!s.ok()) return base::FromGrpc(s);
  return absl::Milliseconds(resp.ttl_ms());
}

absl::Status CoordinatorClient::ReturnLease(const std::string& lease_id) {
  qipu::v1::ReturnLeaseRequest req;
  req.set_lease_id(lease_id);
  req.set_worker(options_.worker);
  qipu::v1::ReturnLeaseResponse resp;
  grpc::ClientContext ctx;
  grpc::Status s;
  {
    CallScope scope(this, &ctx);
    s = stub_->ReturnLease(&ctx, req, &resp);
  }
  return base::FromGrpc(s);
}

void CoordinatorClient::CancelCalls() {
  absl::MutexLock lock(&mu_);
  for (grpc::ClientContext* ctx : calls_) ctx->TryCancel();
}

}  // namespace qipu::worker

#include "worker/client.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/channel_arguments.h"

namespace qipu::worker {

absl::Status FromGrpc(const grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      s.error_message());
}

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
  grpc::ChannelArguments args;
  const int max_ms = static_cast<int>(
      absl::ToInt64Milliseconds(options.max_reconnect_backoff));
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, std::min(100, max_ms));
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, max_ms);
  return grpc::CreateCustomChannel(options.address,
                                   grpc::InsecureChannelCredentials(), args);
}

}  // namespace

CoordinatorClient::CoordinatorClient(const ClientOptions& options)
    : options_(options),
      channel_(MakeChannel(options)),
      stub_(qipu::v1::WorkService::NewStub(channel_)),
      upload_method_(kUploadGamesMethod,
                     grpc::internal::RpcMethod::BIDI_STREAMING, channel_) {}

std::unique_ptr<CoordinatorClient::UploadStream> CoordinatorClient::UploadGames(
    grpc::ClientContext* ctx) {
  // What the generated stub does for its typed stream, with bytes.
  return std::unique_ptr<UploadStream>(
      grpc::internal::ClientReaderWriterFactory<
          grpc::ByteBuffer, grpc::ByteBuffer>::Create(channel_.get(),
                                                      upload_method_, ctx));
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
  if (!s.ok()) return FromGrpc(s);
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
  if (!s.ok()) return FromGrpc(s);
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
  return FromGrpc(s);
}

void CoordinatorClient::CancelCalls() {
  absl::MutexLock lock(&mu_);
  for (grpc::ClientContext* ctx : calls_) ctx->TryCancel();
}

}  // namespace qipu::worker

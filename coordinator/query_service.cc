#include "coordinator/query_service.h"

#include <utility>

#include "coordinator/grpc_status.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {
namespace {

// Moves the engine's answer into *resp, or maps its error. Storage errors
// (not the caller's fault) are logged.
template <typename Response>
grpc::Status Reply(const char* rpc, absl::StatusOr<Response> r,
                   Response* resp) {
  if (!r.ok()) {
    const absl::StatusCode code = r.status().code();
    if (code != absl::StatusCode::kInvalidArgument &&
        code != absl::StatusCode::kNotFound) {
      spdlog::error("query {}: {}", rpc, r.status().ToString());
    }
    return ToGrpc(r.status());
  }
  *resp = *std::move(r);
  return grpc::Status::OK;
}

}  // namespace

grpc::Status QueryServiceImpl::Openings(grpc::ServerContext* ctx,
                                        const qipu::v1::OpeningsRequest* req,
                                        qipu::v1::OpeningsResponse* resp) {
  return Reply("Openings", engine_->Openings(*req), resp);
}

grpc::Status QueryServiceImpl::Ko(grpc::ServerContext* ctx,
                                  const qipu::v1::KoRequest* req,
                                  qipu::v1::KoResponse* resp) {
  return Reply("Ko", engine_->Ko(*req), resp);
}

grpc::Status QueryServiceImpl::Cycles(grpc::ServerContext* ctx,
                                      const qipu::v1::CyclesRequest* req,
                                      qipu::v1::CyclesResponse* resp) {
  return Reply("Cycles", engine_->Cycles(*req), resp);
}

grpc::Status QueryServiceImpl::Results(grpc::ServerContext* ctx,
                                       const qipu::v1::ResultsRequest* req,
                                       qipu::v1::ResultsResponse* resp) {
  return Reply("Results", engine_->Results(*req), resp);
}

grpc::Status QueryServiceImpl::GetGame(grpc::ServerContext* ctx,
                                       const qipu::v1::GetGameRequest* req,
                                       qipu::v1::GetGameResponse* resp) {
  return Reply("GetGame", engine_->GetGame(*req), resp);
}

}  // namespace qipu::coordinator

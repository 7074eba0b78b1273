#include "coordinator/token_service.h"

#include <utility>

#include "base/grpc_status.h"
#include "base/quote.h"
#include "coordinator/access.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {

grpc::Status TokenServiceImpl::CheckCaller(const grpc::ServerContext* ctx,
                                           const char* rpc) const {
  if (!local_only_) return grpc::Status::OK;
  const absl::Status s = CheckLocalCaller(ctx->peer(), rpc);
  if (!s.ok()) spdlog::warn("tokens: refused: {}", std::string(s.message()));
  return base::ToGrpc(s);
}

grpc::Status TokenServiceImpl::Create(grpc::ServerContext* ctx,
                                      const qipu::v1::CreateTokenRequest* req,
                                      qipu::v1::CreateTokenResponse* resp) {
  if (grpc::Status s = CheckCaller(ctx, "TokenService.Create"); !s.ok()) {
    return s;
  }
  auto c = tokens_->Create(req->role(), req->name());
  if (!c.ok()) return base::ToGrpc(c.status());
  spdlog::info("tokens: created token {} ({}, {}) for {}", c->info.id(),
               RoleName(c->info.role()), base::QuoteInput(c->info.name()),
               ctx->peer());
  resp->set_token(std::move(c->token));
  *resp->mutable_info() = std::move(c->info);
  return grpc::Status::OK;
}

grpc::Status TokenServiceImpl::List(grpc::ServerContext* ctx,
                                    const qipu::v1::ListTokensRequest* /*req*/,
                                    qipu::v1::ListTokensResponse* resp) {
  if (grpc::Status s = CheckCaller(ctx, "TokenService.List"); !s.ok()) {
    return s;
  }
  for (qipu::v1::TokenInfo& t : tokens_->List()) {
    *resp->add_tokens() = std::move(t);
  }
  return grpc::Status::OK;
}

grpc::Status TokenServiceImpl::Revoke(grpc::ServerContext* ctx,
                                      const qipu::v1::RevokeTokenRequest* req,
                                      qipu::v1::RevokeTokenResponse* resp) {
  if (grpc::Status s = CheckCaller(ctx, "TokenService.Revoke"); !s.ok()) {
    return s;
  }
  auto info = tokens_->Revoke(req->id());
  if (!info.ok()) return base::ToGrpc(info.status());
  spdlog::info("tokens: revoked token {} for {}", req->id(), ctx->peer());
  *resp->mutable_info() = *std::move(info);
  return grpc::Status::OK;
}

}  // namespace qipu::coordinator

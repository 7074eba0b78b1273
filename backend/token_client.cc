#include "backend/token_client.h"

#include <utility>

#include "base/channel.h"
#include "base/grpc_status.h"

namespace qipu::backend {

absl::StatusOr<std::unique_ptr<TokenClient>> TokenClient::Open(const Target& t,
                                                               bool create) {
  if (absl::Status s = ValidateTarget(t); !s.ok()) return s;
  std::unique_ptr<TokenClient> c(new TokenClient());
  c->target_ = t;
  if (!t.server.empty()) {
    c->stub_ = qipu::v1::TokenService::NewStub(
        base::Dial(t.server, ChannelOptionsOf(t)));
    return c;
  }
  engine::EngineOptions o;
  o.create = create;
  auto db = engine::Engine::Open(t.db, o);
  if (!db.ok()) return db.status();
  c->db_ = *std::move(db);
  auto tokens = engine::TokenRegistry::Load(&c->db_->store());
  if (!tokens.ok()) return tokens.status();
  c->tokens_ = *std::move(tokens);
  return c;
}

absl::StatusOr<qipu::v1::CreateTokenResponse> TokenClient::Create(
    qipu::v1::Role role, const std::string& name) {
  qipu::v1::CreateTokenResponse resp;
  if (tokens_ != nullptr) {
    auto c = tokens_->Create(role, name);
    if (!c.ok()) return c.status();
    resp.set_token(std::move(c->token));
    *resp.mutable_info() = std::move(c->info);
    return resp;
  }
  qipu::v1::CreateTokenRequest req;
  req.set_role(role);
  req.set_name(name);
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, target_.timeout);
  if (absl::Status s = base::FromGrpc(stub_->Create(&ctx, req, &resp));
      !s.ok()) {
    return WithServerHint(std::move(s), target_.server);
  }
  return resp;
}

absl::StatusOr<std::vector<qipu::v1::TokenInfo>> TokenClient::List() {
  if (tokens_ != nullptr) return tokens_->List();
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, target_.timeout);
  qipu::v1::ListTokensResponse resp;
  if (absl::Status s = base::FromGrpc(
          stub_->List(&ctx, qipu::v1::ListTokensRequest(), &resp));
      !s.ok()) {
    return WithServerHint(std::move(s), target_.server);
  }
  return std::vector<qipu::v1::TokenInfo>(resp.tokens().begin(),
                                          resp.tokens().end());
}

absl::StatusOr<qipu::v1::TokenInfo> TokenClient::Revoke(uint64_t id) {
  if (tokens_ != nullptr) return tokens_->Revoke(id);
  qipu::v1::RevokeTokenRequest req;
  req.set_id(id);
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, target_.timeout);
  qipu::v1::RevokeTokenResponse resp;
  if (absl::Status s = base::FromGrpc(stub_->Revoke(&ctx, req, &resp));
      !s.ok()) {
    return WithServerHint(std::move(s), target_.server);
  }
  return resp.info();
}

}  // namespace qipu::backend

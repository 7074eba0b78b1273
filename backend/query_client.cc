#include "backend/query_client.h"

#include <utility>

#include "base/channel.h"
#include "base/grpc_status.h"

namespace qipu::backend {

absl::StatusOr<std::unique_ptr<QueryClient>> QueryClient::Open(
    const Target& t) {
  if (absl::Status s = ValidateTarget(t); !s.ok()) return s;
  std::unique_ptr<QueryClient> c(new QueryClient());
  c->target_ = t;
  if (!t.server.empty()) {
    c->stub_ = qipu::v1::QueryService::NewStub(
        base::Dial(t.server, ChannelOptionsOf(t)));
    return c;
  }
  auto db = engine::Engine::Open(t.db);
  if (!db.ok()) return db.status();
  c->db_ = *std::move(db);
  return c;
}

template <typename Req, typename Resp>
absl::StatusOr<Resp> QueryClient::Call(
    grpc::Status (qipu::v1::QueryService::Stub::*rpc)(grpc::ClientContext*,
                                                      const Req&, Resp*),
    absl::StatusOr<Resp> (engine::QueryEngine::*local)(const Req&) const,
    const Req& req) {
  if (db_ != nullptr) return (db_->queries().*local)(req);
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, target_.timeout);
  Resp resp;
  if (absl::Status s = base::FromGrpc(((*stub_).*rpc)(&ctx, req, &resp));
      !s.ok()) {
    return WithServerHint(std::move(s), target_.server);
  }
  return resp;
}

absl::StatusOr<qipu::v1::OpeningsResponse> QueryClient::Openings(
    const qipu::v1::OpeningsRequest& req) {
  return Call(&qipu::v1::QueryService::Stub::Openings,
              &engine::QueryEngine::Openings, req);
}

absl::StatusOr<qipu::v1::KoResponse> QueryClient::Ko(
    const qipu::v1::KoRequest& req) {
  return Call(&qipu::v1::QueryService::Stub::Ko, &engine::QueryEngine::Ko, req);
}

absl::StatusOr<qipu::v1::CyclesResponse> QueryClient::Cycles(
    const qipu::v1::CyclesRequest& req) {
  return Call(&qipu::v1::QueryService::Stub::Cycles,
              &engine::QueryEngine::Cycles, req);
}

absl::StatusOr<qipu::v1::ResultsResponse> QueryClient::Results(
    const qipu::v1::ResultsRequest& req) {
  return Call(&qipu::v1::QueryService::Stub::Results,
              &engine::QueryEngine::Results, req);
}

absl::StatusOr<qipu::v1::GetGameResponse> QueryClient::GetGame(
    const qipu::v1::GetGameRequest& req) {
  return Call(&qipu::v1::QueryService::Stub::GetGame,
              &engine::QueryEngine::GetGame, req);
}

absl::StatusOr<qipu::v1::PatternResponse> QueryClient::Pattern(
    const qipu::v1::PatternRequest& req) {
  return Call(&qipu::v1::QueryService::Stub::Pattern,
              &engine::QueryEngine::Pattern, req);
}

absl::StatusOr<qipu::v1::GamesResponse> QueryClient::Games(
    const qipu::v1::GamesRequest& req) {
  return Call(&qipu::v1::QueryService::Stub::Games, &engine::QueryEngine::Games,
              req);
}

absl::StatusOr<qipu::v1::PlayersResponse> QueryClient::Players(
    const qipu::v1::PlayersRequest& req) {
  return Call(&qipu::v1::QueryService::Stub::Players,
              &engine::QueryEngine::Players, req);
}

}  // namespace qipu::backend

#include "client/tournament_client.h"

#include <utility>

#include "base/channel.h"
#include "base/grpc_status.h"

namespace qipu::client {

using engine::Tournaments;
using Stub = qipu::v1::TournamentService::Stub;

absl::StatusOr<std::unique_ptr<TournamentClient>> TournamentClient::Open(
    const Target& t, bool create) {
  if (absl::Status s = ValidateTarget(t); !s.ok()) return s;
  std::unique_ptr<TournamentClient> c(new TournamentClient());
  c->target_ = t;
  if (!t.server.empty()) {
    c->stub_ = qipu::v1::TournamentService::NewStub(
        base::Dial(t.server, ChannelOptionsOf(t)));
    return c;
  }
  engine::EngineOptions o;
  o.create = create;
  auto db = engine::Engine::Open(t.db, o);
  if (!db.ok()) return db.status();
  c->db_ = *std::move(db);
  return c;
}

template <typename Req, typename Resp, typename Local>
absl::StatusOr<Resp> TournamentClient::Call(
    grpc::Status (Stub::*rpc)(grpc::ClientContext*, const Req&, Resp*),
    Local local, const Req& req) {
  if (db_ != nullptr) return (db_->tournaments().*local)(req);
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, target_.timeout);
  Resp resp;
  if (absl::Status s = base::FromGrpc(((*stub_).*rpc)(&ctx, req, &resp));
      !s.ok()) {
    return WithServerHint(std::move(s), target_.server);
  }
  return resp;
}

// The local overloads, picked by request type.
using CreateFn = absl::StatusOr<qipu::v1::TournamentResponse> (Tournaments::*)(
    const qipu::v1::CreateTournamentRequest&);
using GetFn = absl::StatusOr<qipu::v1::TournamentResponse> (Tournaments::*)(
    const qipu::v1::TournamentRequest&) const;

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::Create(
    const qipu::v1::CreateTournamentRequest& req) {
  return Call(&Stub::Create, static_cast<CreateFn>(&Tournaments::Create), req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::Get(
    const qipu::v1::TournamentRequest& req) {
  return Call(&Stub::Get, static_cast<GetFn>(&Tournaments::Get), req);
}

absl::StatusOr<qipu::v1::ListTournamentsResponse> TournamentClient::List(
    const qipu::v1::ListTournamentsRequest& req) {
  return Call(&Stub::List, &Tournaments::List, req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::AddPlayer(
    const qipu::v1::AddPlayerRequest& req) {
  return Call(&Stub::AddPlayer, &Tournaments::AddPlayer, req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::Withdraw(
    const qipu::v1::WithdrawRequest& req) {
  return Call(&Stub::Withdraw, &Tournaments::Withdraw, req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::AddWarnings(
    const qipu::v1::WarningsRequest& req) {
  return Call(&Stub::AddWarnings, &Tournaments::AddWarnings, req);
}

absl::StatusOr<qipu::v1::PairResponse> TournamentClient::Pair(
    const qipu::v1::PairRequest& req) {
  return Call(&Stub::Pair, &Tournaments::Pair, req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::SetResult(
    const qipu::v1::SetResultRequest& req) {
  return Call(&Stub::SetResult, &Tournaments::SetResult, req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::RecordGame(
    const qipu::v1::RecordGameRequest& req) {
  return Call(&Stub::RecordGame, &Tournaments::RecordGame, req);
}

}  // namespace qipu::client

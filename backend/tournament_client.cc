#include "backend/tournament_client.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/channel.h"
#include "base/grpc_status.h"
#include "proto/metadata_keys.h"

namespace qipu::backend {

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

std::string TournamentClient::LocalUser() {
  if (const char* user = std::getenv("USER"); user != nullptr && *user) {
    return user;
  }
  if (const passwd* pw = getpwuid(geteuid()); pw != nullptr) {
    return pw->pw_name;
  }
  return absl::StrCat("uid ", geteuid());
}

template <typename Req, typename Resp, typename Local>
absl::StatusOr<Resp> TournamentClient::Call(
    grpc::Status (Stub::*rpc)(grpc::ClientContext*, const Req&, Resp*),
    Local local, const Req& req) {
  if (db_ != nullptr) {
    return local(db_->tournaments(), req,
                 absl::StrCat(LocalUser(), " (local)"));
  }
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, target_.timeout);
  ctx.AddMetadata(wire::kCallerUserKey, LocalUser());
  Resp resp;
  if (absl::Status s = base::FromGrpc(((*stub_).*rpc)(&ctx, req, &resp));
      !s.ok()) {
    return WithServerHint(std::move(s), target_.server);
  }
  return resp;
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::Create(
    const qipu::v1::CreateTournamentRequest& req) {
  return Call(
      &Stub::Create,
      [](Tournaments& t, const auto& r, const std::string&) {
        return t.Create(r);
      },
      req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::Get(
    const qipu::v1::TournamentRequest& req) {
  return Call(
      &Stub::Get,
      [](Tournaments& t, const auto& r, const std::string&) {
        return t.Get(r);
      },
      req);
}

absl::StatusOr<qipu::v1::ListTournamentsResponse> TournamentClient::List(
    const qipu::v1::ListTournamentsRequest& req) {
  return Call(
      &Stub::List,
      [](Tournaments& t, const auto& r, const std::string&) {
        return t.List(r);
      },
      req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::AddPlayer(
    const qipu::v1::AddPlayerRequest& req) {
  return Call(
      &Stub::AddPlayer,
      [](Tournaments& t, const auto& r, const std::string&) {
        return t.AddPlayer(r);
      },
      req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::Withdraw(
    const qipu::v1::WithdrawRequest& req) {
  return Call(
      &Stub::Withdraw,
      [](Tournaments& t, const auto& r, const std::string& who) {
        return t.Withdraw(r, who);
      },
      req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::AddWarnings(
    const qipu::v1::WarningsRequest& req) {
  return Call(
      &Stub::AddWarnings,
      [](Tournaments& t, const auto& r, const std::string&) {
        return t.AddWarnings(r);
      },
      req);
}

absl::StatusOr<qipu::v1::PairResponse> TournamentClient::Pair(
    const qipu::v1::PairRequest& req) {
  return Call(
      &Stub::Pair,
      [](Tournaments& t, const auto& r, const std::string&) {
        return t.Pair(r);
      },
      req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::SetResult(
    const qipu::v1::SetResultRequest& req) {
  return Call(
      &Stub::SetResult,
      [](Tournaments& t, const auto& r, const std::string& who) {
        return t.SetResult(r, who);
      },
      req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::RecordGame(
    const qipu::v1::RecordGameRequest& req) {
  return Call(
      &Stub::RecordGame,
      [](Tournaments& t, const auto& r, const std::string& who) {
        return t.RecordGame(r, who);
      },
      req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::EditPlayer(
    const qipu::v1::EditPlayerRequest& req) {
  return Call(
      &Stub::EditPlayer,
      [](Tournaments& t, const auto& r, const std::string&) {
        return t.EditPlayer(r);
      },
      req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::SitOut(
    const qipu::v1::SitOutRequest& req) {
  return Call(
      &Stub::SitOut,
      [](Tournaments& t, const auto& r, const std::string&) {
        return t.SitOut(r);
      },
      req);
}

absl::StatusOr<qipu::v1::TournamentResponse> TournamentClient::EditPairing(
    const qipu::v1::EditPairingRequest& req) {
  return Call(
      &Stub::EditPairing,
      [](Tournaments& t, const auto& r, const std::string& who) {
        return t.EditPairing(r, who);
      },
      req);
}

}  // namespace qipu::backend

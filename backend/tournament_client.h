// TournamentClient: the tournament requests of
// qipu/v1/tournament_service.proto against a Target -- TournamentService on
// a coordinator, or the Tournaments of a database opened here. The answers
// are the same messages either way. Who calls, for a tournament's history:
// on a database opened here, the local user ("alice (local)"); to a
// server, the token identifies the caller, and every call also carries the
// local user name as metadata `qipu-user` (what a coordinator without
// tokens records, marked unverified).
#ifndef QIPU_BACKEND_TOURNAMENT_CLIENT_H_
#define QIPU_BACKEND_TOURNAMENT_CLIENT_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "backend/target.h"
#include "engine/engine.h"
#include "qipu/v1/tournament_service.grpc.pb.h"

namespace qipu::backend {

// Thread-safe (gRPC stubs and Tournaments are).
class TournamentClient {
 public:
  // Dials the server, or opens the database (created when missing and
  // `create`). InvalidArgument for a bad target; errors of
  // engine::Engine::Open().
  static absl::StatusOr<std::unique_ptr<TournamentClient>> Open(
      const Target& t, bool create = false);

  absl::StatusOr<qipu::v1::TournamentResponse> Create(
      const qipu::v1::CreateTournamentRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> Get(
      const qipu::v1::TournamentRequest& req);
  absl::StatusOr<qipu::v1::ListTournamentsResponse> List(
      const qipu::v1::ListTournamentsRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> AddPlayer(
      const qipu::v1::AddPlayerRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> Withdraw(
      const qipu::v1::WithdrawRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> AddWarnings(
      const qipu::v1::WarningsRequest& req);
  absl::StatusOr<qipu::v1::PairResponse> Pair(const qipu::v1::PairRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> SetResult(
      const qipu::v1::SetResultRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> RecordGame(
      const qipu::v1::RecordGameRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> EditPlayer(
      const qipu::v1::EditPlayerRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> SitOut(
      const qipu::v1::SitOutRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> EditPairing(
      const qipu::v1::EditPairingRequest& req);

  // The user this process runs as ($USER, else the password database,
  // else "uid N").
  static std::string LocalUser();

  // The database opened here; nullptr for a server target. Owned by this
  // client.
  engine::Engine* database() { return db_.get(); }

 private:
  TournamentClient() = default;
  // Runs `rpc` on the stub, or local(tournaments, req, who) on the
  // database's Tournaments.
  template <typename Req, typename Resp, typename Local>
  absl::StatusOr<Resp> Call(
      grpc::Status (qipu::v1::TournamentService::Stub::*rpc)(
          grpc::ClientContext*, const Req&, Resp*),
      Local local, const Req& req);

  Target target_;
  std::unique_ptr<qipu::v1::TournamentService::Stub> stub_;
  std::unique_ptr<engine::Engine> db_;
};

}  // namespace qipu::backend

#endif  // QIPU_BACKEND_TOURNAMENT_CLIENT_H_

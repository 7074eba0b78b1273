// gRPC edge of the tournaments: TournamentService of
// qipu/v1/tournament_service.proto. Each RPC hands its request to
// Tournaments (tournaments.h), which reads, changes and durably writes the
// tournament under its lock, and maps the absl::Status to the gRPC code
// (INVALID_ARGUMENT for bad input, FAILED_PRECONDITION for a call the
// tournament's state does not allow -- results missing, entries closed --,
// NOT_FOUND for an unknown tournament or name, DATA_LOSS for a damaged
// record, UNAVAILABLE for storage trouble). The changes a tournament's
// history keeps name their caller (CallerOf()).
#ifndef QIPU_COORDINATOR_TOURNAMENT_SERVICE_H_
#define QIPU_COORDINATOR_TOURNAMENT_SERVICE_H_

#include <string>

#include "engine/tournaments.h"
#include "qipu/v1/tournament_service.grpc.pb.h"

namespace qipu::coordinator {

// On the synchronous API (a change fsyncs the write-ahead log).
// Thread-safe; does not own `tournaments`, which must outlive the service.
class TournamentServiceImpl final
    : public qipu::v1::TournamentService::Service {
 public:
  explicit TournamentServiceImpl(engine::Tournaments* tournaments)
      : tournaments_(tournaments) {}

  grpc::Status Create(grpc::ServerContext* ctx,
                      const qipu::v1::CreateTournamentRequest* req,
                      qipu::v1::TournamentResponse* resp) override;
  grpc::Status Get(grpc::ServerContext* ctx,
                   const qipu::v1::TournamentRequest* req,
                   qipu::v1::TournamentResponse* resp) override;
  grpc::Status List(grpc::ServerContext* ctx,
                    const qipu::v1::ListTournamentsRequest* req,
                    qipu::v1::ListTournamentsResponse* resp) override;
  grpc::Status AddPlayer(grpc::ServerContext* ctx,
                         const qipu::v1::AddPlayerRequest* req,
                         qipu::v1::TournamentResponse* resp) override;
  grpc::Status Withdraw(grpc::ServerContext* ctx,
                        const qipu::v1::WithdrawRequest* req,
                        qipu::v1::TournamentResponse* resp) override;
  grpc::Status AddWarnings(grpc::ServerContext* ctx,
                           const qipu::v1::WarningsRequest* req,
                           qipu::v1::TournamentResponse* resp) override;
  grpc::Status Pair(grpc::ServerContext* ctx, const qipu::v1::PairRequest* req,
                    qipu::v1::PairResponse* resp) override;
  grpc::Status SetResult(grpc::ServerContext* ctx,
                         const qipu::v1::SetResultRequest* req,
                         qipu::v1::TournamentResponse* resp) override;
  grpc::Status RecordGame(grpc::ServerContext* ctx,
                          const qipu::v1::RecordGameRequest* req,
                          qipu::v1::TournamentResponse* resp) override;
  grpc::Status EditPlayer(grpc::ServerContext* ctx,
                          const qipu::v1::EditPlayerRequest* req,
                          qipu::v1::TournamentResponse* resp) override;
  grpc::Status SitOut(grpc::ServerContext* ctx,
                      const qipu::v1::SitOutRequest* req,
                      qipu::v1::TournamentResponse* resp) override;
  grpc::Status EditPairing(grpc::ServerContext* ctx,
                           const qipu::v1::EditPairingRequest* req,
                           qipu::v1::TournamentResponse* resp) override;

 private:
  engine::Tournaments* tournaments_;
};

// Who makes a call, for a tournament's history: "token 3 'desk'
// (operator)" when the coordinator checks tokens (the auth context the
// token check fills, server_credentials.cc); otherwise the user name the
// client says it runs as (metadata `qipu-user`, not verified) and its
// address: "alice (no token, 127.0.0.1)".
std::string CallerOf(const grpc::ServerContext& ctx);

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_TOURNAMENT_SERVICE_H_

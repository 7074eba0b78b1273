#include "coordinator/tournament_service.h"

#include <utility>

#include "base/grpc_status.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {
namespace {

// Moves the answer into *resp, or maps its error; errors that are not the
// caller's are logged.
template <typename Response>
grpc::Status Answer(const char* rpc, absl::StatusOr<Response> r,
                    Response* resp) {
  if (!r.ok()) {
    switch (r.status().code()) {
      case absl::StatusCode::kInvalidArgument:
      case absl::StatusCode::kFailedPrecondition:
      case absl::StatusCode::kNotFound:
        break;
      default:
        spdlog::error("tournament {}: {}", rpc, r.status().ToString());
    }
    return base::ToGrpc(r.status());
  }
  *resp = *std::move(r);
  return grpc::Status::OK;
}

}  // namespace

grpc::Status TournamentServiceImpl::Create(
    grpc::ServerContext*, const qipu::v1::CreateTournamentRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return Answer("Create", tournaments_->Create(*req), resp);
}

grpc::Status TournamentServiceImpl::Get(grpc::ServerContext*,
                                        const qipu::v1::TournamentRequest* req,
                                        qipu::v1::TournamentResponse* resp) {
  return Answer("Get", tournaments_->Get(*req), resp);
}

grpc::Status TournamentServiceImpl::List(
    grpc::ServerContext*, const qipu::v1::ListTournamentsRequest* req,
    qipu::v1::ListTournamentsResponse* resp) {
  return Answer("List", tournaments_->List(*req), resp);
}

grpc::Status TournamentServiceImpl::AddPlayer(
    grpc::ServerContext*, const qipu::v1::AddPlayerRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return Answer("AddPlayer", tournaments_->AddPlayer(*req), resp);
}

grpc::Status TournamentServiceImpl::Withdraw(
    grpc::ServerContext*, const qipu::v1::WithdrawRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return Answer("Withdraw", tournaments_->Withdraw(*req), resp);
}

grpc::Status TournamentServiceImpl::AddWarnings(
    grpc::ServerContext*, const qipu::v1::WarningsRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return Answer("AddWarnings", tournaments_->AddWarnings(*req), resp);
}

grpc::Status TournamentServiceImpl::Pair(grpc::ServerContext*,
                                         const qipu::v1::PairRequest* req,
                                         qipu::v1::PairResponse* resp) {
  return Answer("Pair", tournaments_->Pair(*req), resp);
}

grpc::Status TournamentServiceImpl::SetResult(
    grpc::ServerContext*, const qipu::v1::SetResultRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return Answer("SetResult", tournaments_->SetResult(*req), resp);
}

grpc::Status TournamentServiceImpl::RecordGame(
    grpc::ServerContext*, const qipu::v1::RecordGameRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return Answer("RecordGame", tournaments_->RecordGame(*req), resp);
}

}  // namespace qipu::coordinator

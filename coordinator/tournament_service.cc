#include "coordinator/tournament_service.h"

#include <utility>

#include "base/grpc_status.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {

grpc::Status TournamentServiceImpl::Create(
    grpc::ServerContext*, const qipu::v1::CreateTournamentRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament Create", tournaments_->Create(*req), resp);
}

grpc::Status TournamentServiceImpl::Get(grpc::ServerContext*,
                                        const qipu::v1::TournamentRequest* req,
                                        qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament Get", tournaments_->Get(*req), resp);
}

grpc::Status TournamentServiceImpl::List(
    grpc::ServerContext*, const qipu::v1::ListTournamentsRequest* req,
    qipu::v1::ListTournamentsResponse* resp) {
  return base::Answer("tournament List", tournaments_->List(*req), resp);
}

grpc::Status TournamentServiceImpl::AddPlayer(
    grpc::ServerContext*, const qipu::v1::AddPlayerRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament AddPlayer", tournaments_->AddPlayer(*req),
                      resp);
}

grpc::Status TournamentServiceImpl::Withdraw(
    grpc::ServerContext*, const qipu::v1::WithdrawRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament Withdraw", tournaments_->Withdraw(*req),
                      resp);
}

grpc::Status TournamentServiceImpl::AddWarnings(
    grpc::ServerContext*, const qipu::v1::WarningsRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament AddWarnings", tournaments_->AddWarnings(*req),
                      resp);
}

grpc::Status TournamentServiceImpl::Pair(grpc::ServerContext*,
                                         const qipu::v1::PairRequest* req,
                                         qipu::v1::PairResponse* resp) {
  return base::Answer("tournament Pair", tournaments_->Pair(*req), resp);
}

grpc::Status TournamentServiceImpl::SetResult(
    grpc::ServerContext*, const qipu::v1::SetResultRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament SetResult", tournaments_->SetResult(*req),
                      resp);
}

grpc::Status TournamentServiceImpl::RecordGame(
    grpc::ServerContext*, const qipu::v1::RecordGameRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament RecordGame", tournaments_->RecordGame(*req),
                      resp);
}

}  // namespace qipu::coordinator

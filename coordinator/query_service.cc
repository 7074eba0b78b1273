#include "coordinator/query_service.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/grpc_status.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {

using base::ToGrpc;

// Finishes the call with Answer()'s status on the context's reactor.
template <typename Response>
grpc::ServerUnaryReactor* QueryServiceImpl::Reply(
    grpc::CallbackServerContext* ctx, const char* rpc,
    absl::StatusOr<Response> r, Response* resp) {
  if (queries_ != nullptr) queries_->Increment();
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  reactor->Finish(
      base::Answer(absl::StrCat("query ", rpc), std::move(r), resp));
  return reactor;
}

grpc::ServerUnaryReactor* QueryServiceImpl::Openings(
    grpc::CallbackServerContext* ctx, const qipu::v1::OpeningsRequest* req,
    qipu::v1::OpeningsResponse* resp) {
  return Reply(ctx, "Openings", engine_->Openings(*req), resp);
}

grpc::ServerUnaryReactor* QueryServiceImpl::Ko(grpc::CallbackServerContext* ctx,
                                               const qipu::v1::KoRequest* req,
                                               qipu::v1::KoResponse* resp) {
  return Reply(ctx, "Ko", engine_->Ko(*req), resp);
}

grpc::ServerUnaryReactor* QueryServiceImpl::Cycles(
    grpc::CallbackServerContext* ctx, const qipu::v1::CyclesRequest* req,
    qipu::v1::CyclesResponse* resp) {
  return Reply(ctx, "Cycles", engine_->Cycles(*req), resp);
}

grpc::ServerUnaryReactor* QueryServiceImpl::Results(
    grpc::CallbackServerContext* ctx, const qipu::v1::ResultsRequest* req,
    qipu::v1::ResultsResponse* resp) {
  return Reply(ctx, "Results", engine_->Results(*req), resp);
}

grpc::ServerUnaryReactor* QueryServiceImpl::GetGame(
    grpc::CallbackServerContext* ctx, const qipu::v1::GetGameRequest* req,
    qipu::v1::GetGameResponse* resp) {
  return Reply(ctx, "GetGame", engine_->GetGame(*req), resp);
}

grpc::ServerUnaryReactor* QueryServiceImpl::Pattern(
    grpc::CallbackServerContext* ctx, const qipu::v1::PatternRequest* req,
    qipu::v1::PatternResponse* resp) {
  if (slow_ == nullptr) {
    return Reply(ctx, "Pattern", engine_->Pattern(*req), resp);
  }
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  // The request, response and context live until the reactor finishes.
  const bool queued =
      slow_->TrySubmit([this, ctx, req, resp, reactor](bool cancelled) {
        if (cancelled) {
          reactor->Finish(grpc::Status(
              grpc::StatusCode::UNAVAILABLE,
              "query Pattern: the coordinator is shutting down; try again"));
          return;
        }
        if (ctx->IsCancelled()) {
          reactor->Finish(grpc::Status(
              grpc::StatusCode::CANCELLED,
              "query Pattern: the caller gave up before the search started"));
          return;
        }
        if (queries_ != nullptr) queries_->Increment();
        reactor->Finish(
            base::Answer("query Pattern", engine_->Pattern(*req), resp));
      });
  if (!queued) {
    reactor->Finish(grpc::Status(
        slow_->Stopped() ? grpc::StatusCode::UNAVAILABLE
                         : grpc::StatusCode::RESOURCE_EXHAUSTED,
        slow_->Stopped()
            ? "query Pattern: the coordinator is shutting down; try again"
            : absl::StrCat("query Pattern: ", slow_->threads(),
                           " pattern searches are running and ",
                           slow_->max_waiting(),
                           " waiting (the coordinator's --pattern-threads "
                           "and --pattern-queue); try again later")));
  }
  return reactor;
}

grpc::ServerUnaryReactor* QueryServiceImpl::Games(
    grpc::CallbackServerContext* ctx, const qipu::v1::GamesRequest* req,
    qipu::v1::GamesResponse* resp) {
  return Reply(ctx, "Games", engine_->Games(*req), resp);
}

grpc::ServerUnaryReactor* QueryServiceImpl::Players(
    grpc::CallbackServerContext* ctx, const qipu::v1::PlayersRequest* req,
    qipu::v1::PlayersResponse* resp) {
  return Reply(ctx, "Players", engine_->Players(*req), resp);
}

}  // namespace qipu::coordinator

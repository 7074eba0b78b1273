// QueryClient: the statistical queries of qipu/v1/query.proto against a
// Target -- QueryService on a coordinator, or a QueryEngine on a database
// opened here. The answers are the same messages either way.
#ifndef QIPU_BACKEND_QUERY_CLIENT_H_
#define QIPU_BACKEND_QUERY_CLIENT_H_

#include <memory>

#include "absl/status/statusor.h"
#include "backend/target.h"
#include "engine/engine.h"
#include "qipu/v1/query.grpc.pb.h"

namespace qipu::backend {

// Thread-safe (gRPC stubs and the query engine are).
class QueryClient {
 public:
  // Dials the server, or opens the database (it must exist).
  // InvalidArgument for a bad target; errors of engine::Engine::Open().
  static absl::StatusOr<std::unique_ptr<QueryClient>> Open(const Target& t);

  absl::StatusOr<qipu::v1::OpeningsResponse> Openings(
      const qipu::v1::OpeningsRequest& req);
  absl::StatusOr<qipu::v1::KoResponse> Ko(const qipu::v1::KoRequest& req);
  absl::StatusOr<qipu::v1::CyclesResponse> Cycles(
      const qipu::v1::CyclesRequest& req);
  absl::StatusOr<qipu::v1::ResultsResponse> Results(
      const qipu::v1::ResultsRequest& req);
  absl::StatusOr<qipu::v1::GetGameResponse> GetGame(
      const qipu::v1::GetGameRequest& req);
  // Games in which a local pattern appeared (QueryEngine::Pattern).
  absl::StatusOr<qipu::v1::PatternResponse> Pattern(
      const qipu::v1::PatternRequest& req);
  // A page of games and players by name (the player index, issue 32).
  absl::StatusOr<qipu::v1::GamesResponse> Games(
      const qipu::v1::GamesRequest& req);
  absl::StatusOr<qipu::v1::PlayersResponse> Players(
      const qipu::v1::PlayersRequest& req);

 private:
  QueryClient() = default;

  // Runs `rpc` on the stub, or `local` on the engine.
  template <typename Req, typename Resp>
  absl::StatusOr<Resp> Call(
      grpc::Status (qipu::v1::QueryService::Stub::*rpc)(grpc::ClientContext*,
                                                        const Req&, Resp*),
      absl::StatusOr<Resp> (engine::QueryEngine::*local)(const Req&) const,
      const Req& req);

  Target target_;
  std::unique_ptr<qipu::v1::QueryService::Stub> stub_;
  std::unique_ptr<engine::Engine> db_;
};

}  // namespace qipu::backend

#endif  // QIPU_BACKEND_QUERY_CLIENT_H_

// gRPC edge of the queries: QueryService of qipu/v1/query.proto. Each RPC
// hands its request to the QueryEngine (queries.h), which validates it,
// and maps the absl::Status to the gRPC code (INVALID_ARGUMENT for bad
// filters and moves, NOT_FOUND for unknown games, UNAVAILABLE for storage
// trouble worth retrying, DATA_LOSS for damaged records).
#ifndef QIPU_COORDINATOR_QUERY_SERVICE_H_
#define QIPU_COORDINATOR_QUERY_SERVICE_H_

#include "coordinator/query_queue.h"
#include "engine/queries.h"
#include "prometheus/counter.h"
#include "qipu/v1/query.grpc.pb.h"

namespace qipu::coordinator {

// QueryService on gRPC's callback API: each query is answered inline on
// the thread that received it (the engine reads aggregates and the
// position index, never scans), which saves the hand-off to a sync-server
// worker thread that otherwise dominates a sub-millisecond query.
// Thread-safe; does not own the engine, which must outlive the service.
class QueryServiceImpl final : public qipu::v1::QueryService::CallbackService {
 public:
  // `queries` (may be null; not owned) counts the calls answered
  // (qipu_queries_total). `slow` (may be null: inline; not owned, must
  // outlive the calls) runs the pattern searches.
  explicit QueryServiceImpl(const engine::QueryEngine* engine,
                            prometheus::Counter* queries = nullptr,
                            QueryQueue* slow = nullptr)
      : engine_(engine), queries_(queries), slow_(slow) {}

  grpc::ServerUnaryReactor* Openings(grpc::CallbackServerContext* ctx,
                                     const qipu::v1::OpeningsRequest* req,
                                     qipu::v1::OpeningsResponse* resp) override;
  grpc::ServerUnaryReactor* Ko(grpc::CallbackServerContext* ctx,
                               const qipu::v1::KoRequest* req,
                               qipu::v1::KoResponse* resp) override;
  grpc::ServerUnaryReactor* Cycles(grpc::CallbackServerContext* ctx,
                                   const qipu::v1::CyclesRequest* req,
                                   qipu::v1::CyclesResponse* resp) override;
  grpc::ServerUnaryReactor* Results(grpc::CallbackServerContext* ctx,
                                    const qipu::v1::ResultsRequest* req,
                                    qipu::v1::ResultsResponse* resp) override;
  grpc::ServerUnaryReactor* GetGame(grpc::CallbackServerContext* ctx,
                                    const qipu::v1::GetGameRequest* req,
                                    qipu::v1::GetGameResponse* resp) override;
  // A pattern search scans the pattern index and replays candidate games
  // (up to seconds on 100k games): it runs on the `slow` queue, not on the
  // gRPC thread; RESOURCE_EXHAUSTED when the queue is full, UNAVAILABLE
  // when the coordinator stops before its turn, CANCELLED when the caller
  // gave up before its turn.
  grpc::ServerUnaryReactor* Pattern(grpc::CallbackServerContext* ctx,
                                    const qipu::v1::PatternRequest* req,
                                    qipu::v1::PatternResponse* resp) override;
  // Games and players (issue 32): the player index, inline like the others.
  grpc::ServerUnaryReactor* Games(grpc::CallbackServerContext* ctx,
                                  const qipu::v1::GamesRequest* req,
                                  qipu::v1::GamesResponse* resp) override;
  grpc::ServerUnaryReactor* Players(grpc::CallbackServerContext* ctx,
                                    const qipu::v1::PlayersRequest* req,
                                    qipu::v1::PlayersResponse* resp) override;

 private:
  // Counts the call, then finishes it with `r` (see query_service.cc).
  template <typename Response>
  grpc::ServerUnaryReactor* Reply(grpc::CallbackServerContext* ctx,
                                  const char* rpc, absl::StatusOr<Response> r,
                                  Response* resp);

  const engine::QueryEngine* engine_;
  prometheus::Counter* queries_;
  QueryQueue* slow_;
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_QUERY_SERVICE_H_

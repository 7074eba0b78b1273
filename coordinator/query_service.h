// gRPC edge of the queries: QueryService of qipu/v1/query.proto. Each RPC
// hands its request to the QueryEngine (queries.h), which validates it,
// and maps the absl::Status to the gRPC code (INVALID_ARGUMENT for bad
// filters and moves, NOT_FOUND for unknown games, UNAVAILABLE for storage
// trouble worth retrying, DATA_LOSS for damaged records).
#ifndef QIPU_COORDINATOR_QUERY_SERVICE_H_
#define QIPU_COORDINATOR_QUERY_SERVICE_H_

#include "coordinator/queries.h"
#include "qipu/v1/query.grpc.pb.h"

namespace qipu::coordinator {

// QueryService. Thread-safe; does not own the engine, which must outlive
// the service.
class QueryServiceImpl final : public qipu::v1::QueryService::Service {
 public:
  explicit QueryServiceImpl(const QueryEngine* engine) : engine_(engine) {}

  grpc::Status Openings(grpc::ServerContext* ctx,
                        const qipu::v1::OpeningsRequest* req,
                        qipu::v1::OpeningsResponse* resp) override;
  grpc::Status Ko(grpc::ServerContext* ctx, const qipu::v1::KoRequest* req,
                  qipu::v1::KoResponse* resp) override;
  grpc::Status Cycles(grpc::ServerContext* ctx,
                      const qipu::v1::CyclesRequest* req,
                      qipu::v1::CyclesResponse* resp) override;
  grpc::Status Results(grpc::ServerContext* ctx,
                       const qipu::v1::ResultsRequest* req,
                       qipu::v1::ResultsResponse* resp) override;
  grpc::Status GetGame(grpc::ServerContext* ctx,
                       const qipu::v1::GetGameRequest* req,
                       qipu::v1::GetGameResponse* resp) override;

 private:
  const QueryEngine* engine_;
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_QUERY_SERVICE_H_

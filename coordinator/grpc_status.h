// The one mapping from absl::Status to grpc::Status (service edge).
#ifndef QIPU_COORDINATOR_GRPC_STATUS_H_
#define QIPU_COORDINATOR_GRPC_STATUS_H_

#include <string>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace qipu::coordinator {

// Same code (the numeric values of absl and gRPC codes agree), same
// message.
inline grpc::Status ToGrpc(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()),
                      std::string(s.message()));
}

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_GRPC_STATUS_H_

// The one mapping between absl::Status and grpc::Status, both ways: the
// services map at their edge (ToGrpc), the clients on receipt (FromGrpc).
// The numeric values of absl's and gRPC's codes agree, so the code is kept
// and the message carried over unchanged.
#ifndef QIPU_BASE_GRPC_STATUS_H_
#define QIPU_BASE_GRPC_STATUS_H_

#include <string>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace qipu::base {

// Same code, same message. Thread-safe (pure).
inline grpc::Status ToGrpc(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()),
                      std::string(s.message()));
}

// Same code, same message. Thread-safe (pure).
inline absl::Status FromGrpc(const grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      s.error_message());
}

}  // namespace qipu::base

#endif  // QIPU_BASE_GRPC_STATUS_H_

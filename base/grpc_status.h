// The one mapping between absl::Status and grpc::Status, both ways: the
// services map at their edge (ToGrpc, Answer), the clients on receipt
// (FromGrpc).
// The numeric values of absl's and gRPC's codes agree, so the code is kept
// and the message carried over unchanged.
#ifndef QIPU_BASE_GRPC_STATUS_H_
#define QIPU_BASE_GRPC_STATUS_H_

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
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

// Whether `code` says the caller asked for something wrong (bad input, a
// missing thing, a state that forbids it, no right to it) rather than that
// the server failed. Thread-safe (pure).
inline bool IsCallersFault(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnauthenticated:
      return true;
    default:
      return false;
  }
}

// Logs a server-side failure of `what` (an RPC's name); the caller's own
// faults are not logged. Defined in grpc_status.cc (spdlog).
void LogServerFailure(absl::string_view what, const absl::Status& s);

// A unary RPC's answer: the engine's value moved into *resp, or its error
// mapped (and logged when it is the server's). Thread-safe (pure but for
// the log).
template <typename Response>
grpc::Status Answer(absl::string_view what, absl::StatusOr<Response> r,
                    Response* resp) {
  if (!r.ok()) {
    LogServerFailure(what, r.status());
    return ToGrpc(r.status());
  }
  *resp = *std::move(r);
  return grpc::Status::OK;
}

}  // namespace qipu::base

#endif  // QIPU_BASE_GRPC_STATUS_H_

// Access: which role each RPC of the coordinator needs -- the one table of
// it -- and what each role may do. Used by the token check of every call
// (coordinator/server_credentials.h) when the coordinator runs with
// `--auth required`.
//
// Roles (qipu.v1.Role): a `reader` token may call the methods marked
// kReader (queries, export, training batches, job status, reading
// tournaments, reflection); a `worker` token the methods marked kWorker
// (lease, renew, return, upload); an `operator` token every method. Health
// checks (grpc.health.v1) need no token, so that load balancers and
// probes work. A method missing from the table needs an operator token
// (tests/coordinator/auth_test.cc checks that every RPC of
// proto/qipu/v1/*.proto is in it, so a new RPC must be placed, and
// tests/ops/role_table_test.cc calls each with every role).
#ifndef QIPU_COORDINATOR_ACCESS_H_
#define QIPU_COORDINATOR_ACCESS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/auth.pb.h"

namespace qipu::coordinator {

// What a method needs.
enum class Access {
  // No token (health checks).
  kOpen,
  // A reader or operator token.
  kReader,
  // A worker or operator token.
  kWorker,
  // An operator token.
  kOperator,
};

// The access `method` ("/qipu.v1.JobService/SubmitJob", gRPC's :path)
// needs; kOperator for a method not in the table.
Access RequiredAccess(absl::string_view method);

// Whether a token of `role` may call a method that needs `access`.
bool Allows(qipu::v1::Role role, Access access);

// Every method of the table, with its access (documentation and tests).
struct MethodAccess {
  const char* method;
  Access access;
};
const std::vector<MethodAccess>& AccessTable();

// "reader", "worker", "operator" (and "unspecified").
std::string RoleName(qipu::v1::Role role);
// The role of a name RoleName() gives; InvalidArgument listing the three
// otherwise.
absl::StatusOr<qipu::v1::Role> ParseRole(absl::string_view name);
// "open", "reader", "worker", "operator".
std::string AccessName(Access access);

// With --auth off, TokenService and AdminService answer only callers on
// the coordinator's own host: a token made with auth off still works
// after a restart with --auth required, and a backup writes files on the
// host, so neither is left to anyone who reaches the port. (The other
// calls are as open as --auth off says; the coordinator binds a
// non-loopback address with auth off only when told --insecure.)
// OK when `peer` (grpc::ServerContext::peer()) is on this host
// (base::IsLocalPeer: loopback or a Unix socket); otherwise
// PermissionDenied naming `rpc` ("TokenService.Create"), the peer, why
// and what to do. Thread-safe (pure).
absl::Status CheckLocalCaller(absl::string_view peer, absl::string_view rpc);

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_ACCESS_H_

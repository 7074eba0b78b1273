// The table of every RPC the coordinator serves: per method, a minimal
// request and the code each of five callers gets with `--auth required`
// (no token, a worker, reader or operator token, a revoked operator
// token). tests/ops/role_table_test.cc checks the codes over gRPC and the
// HTTP API; bad_client_test.cc sends each row's request with one string
// field 1 MB long. The methods of proto/qipu/v1 are listed from the
// descriptors (any_rpc.h): a method missing here fails role_table_test.
#ifndef QIPU_TESTS_OPS_RPC_TABLE_H_
#define QIPU_TESTS_OPS_RPC_TABLE_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "grpcpp/support/status.h"

namespace qipu::testing {

// The five callers, in the order each row is tried.
enum Caller { kNone, kWorker, kReader, kRevoked, kOperator, kCallers };
inline constexpr const char* kCallerNames[kCallers] = {
    "no token", "worker", "reader", "revoked operator", "operator"};

// The code each caller gets, indexed by Caller.
using Codes = std::array<grpc::StatusCode, kCallers>;
// The refusals: no valid token, a role that may not call.
inline constexpr grpc::StatusCode kUnauth = grpc::StatusCode::UNAUTHENTICATED;
inline constexpr grpc::StatusCode kDenied = grpc::StatusCode::PERMISSION_DENIED;

// One method: a minimal request (each string one message, in protobuf
// text format of the method's request type, with the placeholders of
// FillRequest(); none: a stream of no messages) and the code of each
// caller.
struct Row {
  std::string method;
  std::vector<std::string> messages;
  Codes codes;
  // The HTTP API endpoint that answers the same query ("" for none): the
  // same callers get the HTTP form of the same codes.
  std::string http;
  // For a stream that does not end by itself (health Watch): cancelled
  // after this many responses, so CANCELLED is what its callers get.
  int cancel_after = 0;
};

// The table. Order matters where one row makes what a later row uses:
// job 1 is submitted before the table (2 games), SubmitJob makes job 2,
// which CancelJob cancels; tournament 1 is created before it is read or
// changed.
const std::vector<Row>& RpcTable();

// What the placeholders of a row's messages stand for.
struct TableValues {
  // $BACKUP: a directory that does not exist yet.
  std::string backup_dir;
  // $SPARE: the id of a token the table revokes.
  uint64_t spare_token = 0;
};
// `text` with $CONFIG (a 9x9 job's configuration, JobConfigFor(9, 7)),
// $BACKUP and $SPARE filled.
std::string FillRequest(const std::string& text, const TableValues& values);

}  // namespace qipu::testing

#endif  // QIPU_TESTS_OPS_RPC_TABLE_H_

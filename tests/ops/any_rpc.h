// Calling any RPC of the coordinator by name with raw request bytes, for
// tests that go through every method: the role table
// (role_table_test.cc) and the bad-request cases (bad_client_test.cc).
//   QipuMethods()   every method of every service of proto/qipu/v1/*.proto,
//                   from the generated descriptors (a .proto file of the
//                   folder that is not linked in is a test failure)
//   MethodPath()    "/qipu.v1.JobService/SubmitJob"
//   RequestBytes()  a request written in protobuf text format, serialized
//   CallRaw()       one call of any kind (unary or streaming: gRPC's wire
//                   form is the same) with raw request messages
#ifndef QIPU_TESTS_OPS_ANY_RPC_H_
#define QIPU_TESTS_OPS_ANY_RPC_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "google/protobuf/descriptor.h"
#include "grpcpp/channel.h"
#include "grpcpp/support/status.h"

namespace qipu::testing {

// Every method of proto/qipu/v1/*.proto (the folder is listed, each file
// looked up in the generated pool), in file and declaration order. A file
// the test binary does not link adds a test failure naming it.
std::vector<const google::protobuf::MethodDescriptor*> QipuMethods();

// gRPC's :path of `m`.
std::string MethodPath(const google::protobuf::MethodDescriptor* m);

// `text` (protobuf text format) parsed as a message of `type` and
// serialized; InvalidArgument naming the type when it does not parse.
absl::StatusOr<std::string> RequestBytes(
    const google::protobuf::Descriptor* type, const std::string& text);

// What one raw call ended with.
struct RawCallResult {
  grpc::Status status;
  // The response messages' bytes, in order.
  std::vector<std::string> responses;
};

// Calls `path` on `channel`: sends each of `frames` as one message (none
// for an empty stream), half-closes, reads every response and finishes.
// `metadata` is added to the call (e.g. {"authorization", "Bearer ..."};
// a key may repeat). With `cancel_after` > 0 the call is cancelled once
// that many responses have come (for streams that do not end, health
// Watch): its status is then CANCELLED. Every step is bounded by
// `timeout`.
RawCallResult CallRaw(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& path,
    const std::vector<std::string>& frames,
    const std::vector<std::pair<std::string, std::string>>& metadata = {},
    absl::Duration timeout = absl::Seconds(20), int cancel_after = 0);

}  // namespace qipu::testing

#endif  // QIPU_TESTS_OPS_ANY_RPC_H_

// CoordinatorClient: the worker's connection to the coordinator -- one gRPC
// channel and the unary calls of qipu.v1.WorkService (LeaseWork,
// RenewLease, ReturnLease), each with a deadline, their replies converted
// to domain types and their gRPC status to absl::Status (same code). The
// upload stream (Uploader) shares the channel through UploadGames(), which
// carries raw message bytes (worker/upload_wire.h) so that spooled games
// are sent without being parsed and serialized again.
//
// Retrying is the caller's business; IsTransient() tells which failures
// are worth another attempt after a backoff (the coordinator is down,
// restarting or overloaded) and which are not (INVALID_ARGUMENT,
// FAILED_PRECONDITION, UNIMPLEMENTED, ...: the same call would fail again).
#ifndef QIPU_WORKER_CLIENT_H_
#define QIPU_WORKER_CLIENT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "base/channel.h"
#include "base/raw_stream.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/status.h"
#include "grpcpp/support/sync_stream.h"
#include "qipu/v1/work.grpc.pb.h"
#include "worker/game_runner.h"

namespace qipu::worker {

struct ClientOptions {
  // Coordinator address, "host:port" (any gRPC target); with `channel`
  // set, only a name for log lines.
  std::string address;
  // An existing channel to use instead of dialling `address` (e.g. the
  // in-process channel of an embedded coordinator). Shared; may be null.
  std::shared_ptr<grpc::Channel> channel;
  // TLS and token of the dialled channel (not used with `channel`).
  base::ClientTls tls;
  std::string token;
  // This worker's name, sent with every lease call.
  std::string worker;
  // Lease only games of this job (0 = any job).
  uint64_t job = 0;
  // Deadline of each unary call.
  absl::Duration rpc_timeout = absl::Seconds(10);
  // Longest pause of the channel between connection attempts while the
  // coordinator is unreachable (gRPC's own default is two minutes, far
  // too long to notice a restarted coordinator).
  absl::Duration max_reconnect_backoff = absl::Seconds(5);
};

// A LeaseWork reply.
struct LeaseReply {
  // The lease, or nullopt when the coordinator has no work now.
  std::optional<Lease> lease;
  // Lease lifetime without renewal (meaningful with a lease).
  absl::Duration ttl;
  // When there is no work: how long to wait before asking again.
  absl::Duration retry_after;
};

// True when the call may succeed if repeated later: UNAVAILABLE,
// DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, CANCELLED, INTERNAL and
// UNKNOWN (transport failures surface as the last two).
bool IsTransient(const absl::Status& s);

// Thread-safe: calls may run concurrently from any thread.
class CoordinatorClient {
 public:
  // Creates an insecure channel to options.address (it connects lazily).
  explicit CoordinatorClient(const ClientOptions& options);

  CoordinatorClient(const CoordinatorClient&) = delete;
  CoordinatorClient& operator=(const CoordinatorClient&) = delete;

  // Asks for a lease of at most max_games games (0 = the coordinator's
  // default). A reply without a lease is not an error.
  absl::StatusOr<LeaseReply> LeaseWork(uint32_t max_games);

  // Extends `lease_id`; returns its new lifetime. NotFound when the lease
  // expired or is unknown.
  absl::StatusOr<absl::Duration> RenewLease(const std::string& lease_id);

  // Gives `lease_id` back (its unplayed games return to the pool).
  absl::Status ReturnLease(const std::string& lease_id);

  // Cancels the unary calls in flight now (they fail with CANCELLED);
  // later calls are unaffected. For a prompt Stop().
  void CancelCalls();

  // The UploadGames stream as raw bytes: GameUpload messages out, GameAck
  // messages in, each one grpc::ByteBuffer (the caller encodes and
  // parses). Sync API: one writer thread and one reader thread at most.
  using UploadStream = base::RawClientStream;

  // Starts an UploadGames call with `ctx` (not owned; set its deadline
  // first, keep it alive until the stream is finished and destroyed) on
  // the client's channel. Never null; a failure shows in the stream's
  // Read/Write/Finish.
  std::unique_ptr<UploadStream> UploadGames(grpc::ClientContext* ctx);

  const ClientOptions& options() const { return options_; }

 private:
  // Registers a context for CancelCalls() for the duration of a call.
  class CallScope;

  const ClientOptions options_;
  const std::shared_ptr<grpc::Channel> channel_;
  const std::unique_ptr<qipu::v1::WorkService::Stub> stub_;
  // "/qipu.v1.WorkService/UploadGames" on channel_, as a raw stream.
  const base::RawBidiMethod upload_method_;
  absl::Mutex mu_;
  // Contexts of the unary calls in flight (not owned).
  absl::flat_hash_set<grpc::ClientContext*> calls_ ABSL_GUARDED_BY(mu_);
};

}  // namespace qipu::worker

#endif  // QIPU_WORKER_CLIENT_H_

// What one client may ask of the coordinator, so that a client that asks
// too much -- by mistake or on purpose -- is refused with
// RESOURCE_EXHAUSTED naming the limit, and the server keeps serving the
// others:
//   - concurrent streams per client (StreamLimiter): upload, import,
//     export and training streams each hold a handler thread and memory;
//   - request size (gRPC's max receive message size, set on the server
//     builder from CoordinatorOptions::max_message_bytes);
//   - games and time per export call (corpus_service.h): a call returns at
//     most `max_export_games` games and runs at most `max_export_time`;
//     the rest is paged with ExportRequest.after.
// Queries need no cap of their own: each reads one prefix of the position
// index or the aggregates of the buckets it matches (never games), and
// their result sizes are bounded (examples <= 10, one continuation per
// legal move); training batches are capped by the training service.
//
// A client is its peer address without the port (ctx->peer(), e.g.
// "ipv4:10.0.0.7"): every connection from one host counts together. Calls
// through the in-process channel (`qipu local`) share one key.
#ifndef QIPU_COORDINATOR_LIMITS_H_
#define QIPU_COORDINATOR_LIMITS_H_

#include <cstdint>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace qipu::coordinator {

// The limits, with their defaults (coordinator/README.md lists the flags).
struct LimitsOptions {
  // Concurrent streaming calls per client address; 0 = no limit.
  int max_streams_per_client = 64;
  // Games one Export call returns; 0 = no limit.
  uint64_t max_export_games = 100000;
  // Time one Export call runs.
  absl::Duration max_export_time = absl::Minutes(10);
  // Pattern searches running at once (0: DefaultPatternThreads(), a
  // quarter of the cores, at least 1), and searches waiting beyond those
  // (query_queue.h); more are refused with RESOURCE_EXHAUSTED.
  int pattern_threads = 0;
  int pattern_queue = 16;
};

// The client key of a gRPC peer string: "ipv4:10.0.0.7:5123" ->
// "ipv4:10.0.0.7", "ipv6:[::1]:5123" -> "ipv6:[::1]"; a peer without a
// port ("inproc", "unix:/path") is its own key.
std::string ClientOfPeer(absl::string_view peer);

// Counts each client's streams in progress. Thread-safe.
class StreamLimiter {
 public:
  // `max_per_client` <= 0: no limit (streams are still counted).
  explicit StreamLimiter(int max_per_client) : max_(max_per_client) {}
  StreamLimiter(const StreamLimiter&) = delete;
  StreamLimiter& operator=(const StreamLimiter&) = delete;

  // A stream in progress; releases its place when destroyed. Movable.
  class Slot {
   public:
    Slot() = default;
    Slot(Slot&& o) noexcept : owner_(o.owner_), client_(std::move(o.client_)) {
      o.owner_ = nullptr;
    }
    Slot& operator=(Slot&& o) noexcept;
    ~Slot();

   private:
    friend class StreamLimiter;
    Slot(StreamLimiter* owner, std::string client)
        : owner_(owner), client_(std::move(client)) {}
    StreamLimiter* owner_ = nullptr;
    std::string client_;
  };

  // A place for one more stream of the client at `peer` (a gRPC peer
  // string); `rpc` names the call for the error. ResourceExhausted
  // naming the limit when the client has max_per_client open.
  absl::StatusOr<Slot> Acquire(absl::string_view peer, absl::string_view rpc);

  // Streams the client at `peer` has open now (tests, metrics).
  int open(absl::string_view peer) const;

 private:
  void Release(const std::string& client);

  const int max_;
  mutable absl::Mutex mu_;
  // Clients with at least one stream open; erased at zero.
  absl::flat_hash_map<std::string, int> open_ ABSL_GUARDED_BY(mu_);
};

// Acquire() on `limiter`, or an empty slot when it is null (a service
// built without limits, in tests).
absl::StatusOr<StreamLimiter::Slot> AcquireStream(StreamLimiter* limiter,
                                                  absl::string_view peer,
                                                  absl::string_view rpc);

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_LIMITS_H_

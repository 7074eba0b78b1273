// Dialling a qipu coordinator: the one place where qipu's clients (the
// worker, the qipu tool's commands and benchmarks) make gRPC channels, so
// that transport settings -- message size limits, reconnect backoff, and
// later credentials -- are decided once.
#ifndef QIPU_BASE_CHANNEL_H_
#define QIPU_BASE_CHANNEL_H_

#include <memory>
#include <string>

#include "absl/time/time.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"

namespace qipu::base {

// How to dial. Plain value.
struct ChannelOptions {
  // Largest message sent or received, bytes (queries, exports and import
  // files can be large).
  int max_message_bytes = 64 << 20;
  // Reconnect backoff cap (the first retry waits at most 100 ms); zero
  // keeps gRPC's defaults.
  absl::Duration max_reconnect_backoff = absl::ZeroDuration();
  // >= 0: a channel of its own, never shared with another channel to the
  // same address (gRPC shares subchannels of identical arguments); for
  // benchmarks that want one connection per client thread.
  int unshared_index = -1;
};

// A channel to `address` ("HOST:PORT", "unix:PATH"). Never fails here;
// errors show on the first call. Thread-safe.
std::shared_ptr<grpc::Channel> Dial(const std::string& address,
                                    const ChannelOptions& options = {});

// Sets a deadline `timeout` from now on `ctx` (every client call has one).
void SetDeadline(grpc::ClientContext* ctx, absl::Duration timeout);

}  // namespace qipu::base

#endif  // QIPU_BASE_CHANNEL_H_

// Bidirectional gRPC streams of raw bytes, for the one call whose
// messages qipu's hot path does not parse: WorkService.UploadGames. The
// worker sends game bytes straight from its spool, and the coordinator
// reads each upload message once, in its own parser, rather than through
// protobuf's generated one.
//
// This is the only file in qipu that uses gRPC's internal API
// (grpc::internal::RpcMethod, ClientReaderWriterFactory,
// BidiStreamingHandler), because gRPC 1.51's public API has no sync
// streams of untyped bytes: grpc::GenericStub streams only through the
// async and callback APIs, and a generic service takes over every method
// of a server. Both sides below do exactly what the generated code does
// for a typed stream, with grpc::ByteBuffer as the message type.
#ifndef QIPU_BASE_RAW_STREAM_H_
#define QIPU_BASE_RAW_STREAM_H_

#include <functional>
#include <memory>
#include <string>

#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/impl/service_type.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/status.h"
#include "grpcpp/support/sync_stream.h"

namespace qipu::base {

// The client's and the server's ends of a raw stream.
using RawClientStream =
    grpc::ClientReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>;
using RawServerStream =
    grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>;

// Opens raw streams of one bidirectional method on one channel.
// Thread-safe (Open() may be called from any thread).
class RawBidiMethod {
 public:
  // `method` is the full name, "/package.Service/Method" (copied).
  RawBidiMethod(std::shared_ptr<grpc::Channel> channel, std::string method);
  ~RawBidiMethod();

  RawBidiMethod(const RawBidiMethod&) = delete;
  RawBidiMethod& operator=(const RawBidiMethod&) = delete;

  // Starts a call with `ctx` (not owned: set its deadline first, keep it
  // alive until the stream is finished and destroyed). Never null; a
  // failure shows in the stream's Read/Write/Finish. Sync API: one writer
  // thread and one reader thread at most per stream.
  std::unique_ptr<RawClientStream> Open(grpc::ClientContext* ctx) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// What serves a raw stream: called once per call on a gRPC thread.
using RawBidiHandler =
    std::function<grpc::Status(grpc::ServerContext*, RawServerStream*)>;

// A method handler that serves raw streams with `handler`, for a service's
// constructor to pass to grpc::Service::MarkMethodStreamed(index, ...),
// which takes ownership (the call is protected: only the service can make
// it).
grpc::internal::MethodHandler* NewRawBidiHandler(RawBidiHandler handler);

}  // namespace qipu::base

#endif  // QIPU_BASE_RAW_STREAM_H_

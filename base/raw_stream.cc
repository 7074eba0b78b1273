// See raw_stream.h for why this file uses grpc::internal.
#include "base/raw_stream.h"

#include <utility>

#include "grpcpp/impl/rpc_method.h"
#include "grpcpp/support/method_handler.h"

namespace qipu::base {

struct RawBidiMethod::Impl {
  Impl(std::shared_ptr<grpc::Channel> c, std::string m)
      : channel(std::move(c)),
        name(std::move(m)),
        method(name.c_str(), grpc::internal::RpcMethod::BIDI_STREAMING,
               channel) {}

  const std::shared_ptr<grpc::Channel> channel;
  // RpcMethod keeps a pointer to the name: it lives here.
  const std::string name;
  const grpc::internal::RpcMethod method;
};

RawBidiMethod::RawBidiMethod(std::shared_ptr<grpc::Channel> channel,
                             std::string method)
    : impl_(std::make_unique<Impl>(std::move(channel), std::move(method))) {}

RawBidiMethod::~RawBidiMethod() = default;

std::unique_ptr<RawClientStream> RawBidiMethod::Open(
    grpc::ClientContext* ctx) const {
  // What the generated stub does for its typed stream, with bytes.
  return std::unique_ptr<RawClientStream>(
      grpc::internal::ClientReaderWriterFactory<
          grpc::ByteBuffer, grpc::ByteBuffer>::Create(impl_->channel.get(),
                                                      impl_->method, ctx));
}

grpc::internal::MethodHandler* NewRawBidiHandler(RawBidiHandler handler) {
  // What the generated service does for its typed stream, with bytes; the
  // handler holds what it needs, so no service pointer is passed.
  return new grpc::internal::BidiStreamingHandler<
      grpc::Service, grpc::ByteBuffer, grpc::ByteBuffer>(
      [h = std::move(handler)](grpc::Service*, grpc::ServerContext* ctx,
                               RawServerStream* stream) {
        return h(ctx, stream);
      },
      nullptr);
}

}  // namespace qipu::base

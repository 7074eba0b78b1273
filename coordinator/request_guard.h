// RequestGuard: what every call of the coordinator answers, whatever its
// service, when the request itself is bad -- a server interceptor, so that
// no service can forget it.
//
// - A unary or server-streaming call whose request bytes do not parse as
//   the method's request message ends with INVALID_ARGUMENT naming the
//   message type (do not retry: the same bytes fail the same way). gRPC
//   1.51 itself answers INTERNAL on the sync API and UNIMPLEMENTED on the
//   callback API (QueryService), both of which tell a client the server
//   is at fault. The interceptor sees the failed parse as a missing
//   message at POST_RECV_MESSAGE and rewrites the status at
//   PRE_SEND_STATUS. (Client-streaming requests are read by the handler:
//   a sync stream's Read() cannot tell a bad message from the end of the
//   stream, so the one typed such stream, CorpusService.Import, reads raw
//   bytes and parses them itself, base/parsed_stream.h; UploadGames
//   parses its own bytes too.)
// - Every status message is capped at base::kMaxMessageBytes
//   (base::CapMessage): a message that echoed a large request field whole
//   would exceed the client's metadata limit and reach it as
//   RESOURCE_EXHAUSTED with the message lost. The services quote caller
//   input through base::QuoteInput(); this is the last guard.
//
// Why an interceptor rather than a custom SerializationTraits or wrapped
// method handlers: the generated handlers deserialize through
// SerializationTraits<MessageLite> in the generated .grpc.pb.cc (a
// specialization elsewhere would be an ODR violation), and a handler
// cannot be wrapped after the fact (RpcServiceMethod::SetHandler deletes
// the one it replaces). Server interceptors are gRPC's public hook on
// every call of every service, sync and callback alike.
#ifndef QIPU_COORDINATOR_REQUEST_GUARD_H_
#define QIPU_COORDINATOR_REQUEST_GUARD_H_

#include <memory>

#include "grpcpp/support/server_interceptor.h"

namespace qipu::coordinator {

// An interceptor factory for grpc::ServerBuilder::experimental()
// .SetInterceptorCreators(). Stateless; thread-safe.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
NewRequestGuardFactory();

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_REQUEST_GUARD_H_

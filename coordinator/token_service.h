// gRPC edge of the token registry: TokenService of qipu/v1/auth.proto, for
// `qipu token create|list|revoke --server`. Every RPC needs an operator
// token when the coordinator runs with `--auth required` (access.h), and
// with `--auth off` a caller on the coordinator's host; INVALID_ARGUMENT
// for a bad role or name, NOT_FOUND for an unknown id, UNAVAILABLE for
// storage trouble. Tokens are never logged.
#ifndef QIPU_COORDINATOR_TOKEN_SERVICE_H_
#define QIPU_COORDINATOR_TOKEN_SERVICE_H_

#include "engine/tokens.h"
#include "qipu/v1/auth.grpc.pb.h"

namespace qipu::coordinator {

// Synchronous API (a change fsyncs the write-ahead log). Thread-safe; does
// not own `tokens`, which must outlive the service.
class TokenServiceImpl final : public qipu::v1::TokenService::Service {
 public:
  // `local_only` (the coordinator runs with --auth off): every RPC
  // answers only callers on this host, PERMISSION_DENIED otherwise
  // (CheckLocalCaller, access.h).
  TokenServiceImpl(engine::TokenRegistry* tokens, bool local_only)
      : tokens_(tokens), local_only_(local_only) {}

  grpc::Status Create(grpc::ServerContext* ctx,
                      const qipu::v1::CreateTokenRequest* req,
                      qipu::v1::CreateTokenResponse* resp) override;
  grpc::Status List(grpc::ServerContext* ctx,
                    const qipu::v1::ListTokensRequest* req,
                    qipu::v1::ListTokensResponse* resp) override;
  grpc::Status Revoke(grpc::ServerContext* ctx,
                      const qipu::v1::RevokeTokenRequest* req,
                      qipu::v1::RevokeTokenResponse* resp) override;

 private:
  // OK, or PERMISSION_DENIED for a remote caller when local_only_.
  grpc::Status CheckCaller(const grpc::ServerContext* ctx,
                           const char* rpc) const;

  engine::TokenRegistry* const tokens_;
  const bool local_only_;
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_TOKEN_SERVICE_H_

// TokenClient: the access tokens of a Target -- TokenService on a running
// coordinator (--server, with an operator token when it requires auth) or
// the TokenRegistry of a database opened here (--db: how the first
// operator token is made, before the coordinator starts). Behind `qipu
// token create|list|revoke`.
#ifndef QIPU_BACKEND_TOKEN_CLIENT_H_
#define QIPU_BACKEND_TOKEN_CLIENT_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "backend/target.h"
#include "engine/engine.h"
#include "engine/tokens.h"
#include "qipu/v1/auth.grpc.pb.h"

namespace qipu::backend {

// Not thread-safe (one command's calls).
class TokenClient {
 public:
  // Dials the server or opens the database (created when missing and
  // `create`). Errors: ValidateTarget()'s, the database's.
  static absl::StatusOr<std::unique_ptr<TokenClient>> Open(const Target& t,
                                                           bool create);

  // A new token of `role` named `name`; the response holds its only copy.
  absl::StatusOr<qipu::v1::CreateTokenResponse> Create(qipu::v1::Role role,
                                                       const std::string& name);
  // Every token (never the secrets), in id order.
  absl::StatusOr<std::vector<qipu::v1::TokenInfo>> List();
  // Revokes token `id`; NotFound for an unknown id.
  absl::StatusOr<qipu::v1::TokenInfo> Revoke(uint64_t id);

 private:
  TokenClient() = default;

  Target target_;
  std::unique_ptr<qipu::v1::TokenService::Stub> stub_;
  // With --db: the database and its tokens (registry before database in
  // destruction order).
  std::unique_ptr<engine::Engine> db_;
  std::unique_ptr<engine::TokenRegistry> tokens_;
};

}  // namespace qipu::backend

#endif  // QIPU_BACKEND_TOKEN_CLIENT_H_

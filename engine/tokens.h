// TokenRegistry: the access tokens of one database. A token is
// "qipu_" + 43 base64url characters (32 random bytes from OpenSSL's
// RAND_bytes); the database keeps only its SHA-256, its role, a name, the
// creation time and whether it was revoked (qipu.v1.TokenRecord under
// store::TokenKey in the jobs column family). All records are loaded at
// start and kept in memory, so that checking a call's token is a hash and
// a lookup, never a read of the database.
//
// Used by the coordinator (the per-call check of server_credentials.h and
// TokenService, token_service.h) and by `qipu token ... --db DIR` on a
// database no coordinator holds. A token of another database is simply
// unknown there.
#ifndef QIPU_ENGINE_TOKENS_H_
#define QIPU_ENGINE_TOKENS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "qipu/v1/auth.pb.h"
#include "store/store.h"

namespace qipu::engine {

// SHA-256 of `data` (32 bytes), through OpenSSL's libcrypto.
std::string Sha256(absl::string_view data);

// Thread-safe.
class TokenRegistry {
 public:
  // What a call's token grants.
  struct Grant {
    uint64_t id = 0;
    qipu::v1::Role role = qipu::v1::ROLE_UNSPECIFIED;
    bool revoked = false;
    // The name given when the token was made (who the caller is, for the
    // records a call keeps: a tournament's history).
    std::string name;
  };
  // A new token: `token` is the only copy of the secret.
  struct Created {
    std::string token;
    qipu::v1::TokenInfo info;
  };

  // Loads every token of `store` (not owned; must outlive the registry).
  // DataLoss for a damaged record.
  static absl::StatusOr<std::unique_ptr<TokenRegistry>> Load(
      store::Store* store);

  // Makes, stores (durably) and returns a token of `role`. InvalidArgument
  // for ROLE_UNSPECIFIED or a name over 200 bytes; the store's errors.
  absl::StatusOr<Created> Create(qipu::v1::Role role, const std::string& name);
  // Every token, in id order.
  std::vector<qipu::v1::TokenInfo> List() const;
  // Marks token `id` revoked (durably); NotFound for an unknown id.
  // Revoking a revoked token is OK.
  absl::StatusOr<qipu::v1::TokenInfo> Revoke(uint64_t id);
  // What `token` grants; nullopt when no token of this database has that
  // text. Does not read the database.
  std::optional<Grant> Find(absl::string_view token) const;
  // Tokens of `role` not revoked.
  int ActiveCount(qipu::v1::Role role) const;
  // Every token of the database, by state (the coordinator's start-up
  // line).
  struct Counts {
    int active = 0;
    int revoked = 0;
  };
  Counts Count() const;

 private:
  explicit TokenRegistry(store::Store* store) : store_(store) {}
  static qipu::v1::TokenInfo Info(const qipu::v1::TokenRecord& r);
  absl::Status Write(const qipu::v1::TokenRecord& r);

  store::Store* const store_;
  mutable absl::Mutex mu_;
  // Every record by id.
  std::map<uint64_t, qipu::v1::TokenRecord> records_ ABSL_GUARDED_BY(mu_);
  // SHA-256 -> id, for every record.
  absl::flat_hash_map<std::string, uint64_t> by_hash_ ABSL_GUARDED_BY(mu_);
};

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_TOKENS_H_

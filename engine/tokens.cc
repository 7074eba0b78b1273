#include "engine/tokens.h"

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "openssl/evp.h"
#include "openssl/rand.h"
#include "store/keys.h"

namespace qipu::engine {
namespace {

// Prefix of every token, so that a leaked one is recognisable (secret
// scanners, logs).
constexpr char kTokenPrefix[] = "qipu_";
// Random bytes per token: 256 bits.
constexpr int kSecretBytes = 32;
constexpr size_t kMaxNameBytes = 200;
// The counter of token ids in the default column family.
constexpr char kTokenCounter[] = "next_token";

}  // namespace

std::string Sha256(absl::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  // EVP_Digest fails only when the digest is unavailable (a broken
  // OpenSSL): an empty hash then never matches a stored one.
  if (EVP_Digest(data.data(), data.size(), out, &len, EVP_sha256(), nullptr) !=
      1) {
    return std::string();
  }
  return std::string(reinterpret_cast<const char*>(out), len);
}

absl::StatusOr<std::unique_ptr<TokenRegistry>> TokenRegistry::Load(
    store::Store* store) {
  std::unique_ptr<TokenRegistry> r(new TokenRegistry(store));
  absl::MutexLock lock(&r->mu_);
  store::Cursor it = store->Scan(store::Records::kTokens);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    const std::optional<uint64_t> id = store::DecodeTokenKey(it.key());
    if (!id.has_value()) continue;  // not a key of this layout
    qipu::v1::TokenRecord rec;
    if (!rec.ParseFromArray(it.value().data(),
                            static_cast<int>(it.value().size())) ||
        rec.id() != *id || rec.sha256().size() != 32) {
      return absl::DataLossError(
          absl::StrCat("token record ", *id, " is damaged"));
    }
    r->by_hash_[rec.sha256()] = rec.id();
    r->records_[rec.id()] = std::move(rec);
  }
  if (absl::Status s = it.status(); !s.ok()) return s;
  return r;
}

absl::StatusOr<TokenRegistry::Created> TokenRegistry::Create(
    qipu::v1::Role role, const std::string& name) {
  if (role != qipu::v1::ROLE_READER && role != qipu::v1::ROLE_WORKER &&
      role != qipu::v1::ROLE_OPERATOR) {
    return absl::InvalidArgumentError(
        "role: give one of reader, worker, operator");
  }
  if (name.size() > kMaxNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("name: ", name.size(), " bytes, at most ", kMaxNameBytes));
  }
  unsigned char secret[kSecretBytes];
  if (RAND_bytes(secret, kSecretBytes) != 1) {
    return absl::InternalError("OpenSSL RAND_bytes failed: no random token");
  }
  Created c;
  c.token = absl::StrCat(
      kTokenPrefix, absl::WebSafeBase64Escape(absl::string_view(
                        reinterpret_cast<const char*>(secret), kSecretBytes)));
  absl::StatusOr<uint64_t> id = store_->NextCounter(kTokenCounter);
  if (!id.ok()) return id.status();
  qipu::v1::TokenRecord rec;
  rec.set_id(*id);
  rec.set_role(role);
  rec.set_name(name);
  rec.set_created_ms(absl::ToUnixMillis(absl::Now()));
  rec.set_sha256(Sha256(c.token));
  absl::MutexLock lock(&mu_);
  if (absl::Status s = Write(rec); !s.ok()) return s;
  by_hash_[rec.sha256()] = rec.id();
  c.info = Info(rec);
  records_[rec.id()] = std::move(rec);
  return c;
}

std::vector<qipu::v1::TokenInfo> TokenRegistry::List() const {
  absl::ReaderMutexLock lock(&mu_);
  std::vector<qipu::v1::TokenInfo> out;
  out.reserve(records_.size());
  for (const auto& [id, rec] : records_) out.push_back(Info(rec));
  return out;
}

absl::StatusOr<qipu::v1::TokenInfo> TokenRegistry::Revoke(uint64_t id) {
  absl::MutexLock lock(&mu_);
  auto it = records_.find(id);
  if (it == records_.end()) {
    return absl::NotFoundError(absl::StrCat("no token with id ", id));
  }
  if (!it->second.revoked()) {
    qipu::v1::TokenRecord rec = it->second;
    rec.set_revoked(true);
    if (absl::Status s = Write(rec); !s.ok()) return s;
    it->second = std::move(rec);
  }
  return Info(it->second);
}

std::optional<TokenRegistry::Grant> TokenRegistry::Find(
    absl::string_view token) const {
  const std::string hash = Sha256(token);
  absl::ReaderMutexLock lock(&mu_);
  auto h = by_hash_.find(hash);
  if (h == by_hash_.end()) return std::nullopt;
  const qipu::v1::TokenRecord& rec = records_.at(h->second);
  return Grant{rec.id(), rec.role(), rec.revoked(), rec.name()};
}

int TokenRegistry::ActiveCount(qipu::v1::Role role) const {
  absl::ReaderMutexLock lock(&mu_);
  int n = 0;
  for (const auto& [id, rec] : records_) {
    if (rec.role() == role && !rec.revoked()) ++n;
  }
  return n;
}

TokenRegistry::Counts TokenRegistry::Count() const {
  absl::ReaderMutexLock lock(&mu_);
  Counts c;
  for (const auto& [id, rec] : records_) {
    ++(rec.revoked() ? c.revoked : c.active);
  }
  return c;
}

qipu::v1::TokenInfo TokenRegistry::Info(const qipu::v1::TokenRecord& r) {
  qipu::v1::TokenInfo i;
  i.set_id(r.id());
  i.set_role(r.role());
  i.set_name(r.name());
  i.set_created_ms(r.created_ms());
  i.set_revoked(r.revoked());
  return i;
}

absl::Status TokenRegistry::Write(const qipu::v1::TokenRecord& r) {
  return store_->Put(store::Records::kTokens, store::TokenKey(r.id()),
                     r.SerializeAsString());
}

}  // namespace qipu::engine

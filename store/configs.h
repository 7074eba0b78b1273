// ConfigRegistry: interns configuration buckets -- (board size, rules,
// komi, handicap, source, Black's and White's policy) -- as small integer ids
// used in position and aggregate keys, so that queries filter by scanning a
// handful of buckets instead of games. Ids are durable (fsynced) before they
// are handed out; the fsync happens outside the registry's lock, so lookups
// never wait for one. Thread-safe.
#ifndef QIPU_STORE_CONFIGS_H_
#define QIPU_STORE_CONFIGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "qipu/v1/store.pb.h"
#include "store/store.h"

namespace qipu::store {

// The canonical text of a configuration's dimensions (config_id ignored):
// "WxH|rules key|komi|handicap|source|policy", and "|white=<spec>" after
// it when White's policy differs from Black's (ConfigRecord.white_policy).
std::string ConfigTuple(const qipu::v1::ConfigRecord& c);

class ConfigRegistry {
 public:
  // Does not take ownership; `store` must outlive the registry.
  explicit ConfigRegistry(Store* store) : store_(store) {}

  // Reads every stored configuration. Call once before use.
  absl::Status Load();

  // The id of `dims` (its config_id is ignored), creating and persisting a
  // new one when unseen. Concurrent calls for one unseen tuple get one id:
  // the first writes it, the others wait for it (and try themselves when
  // its write failed).
  absl::StatusOr<uint32_t> Intern(const qipu::v1::ConfigRecord& dims);

  // The configuration with id `id`, if any.
  std::optional<qipu::v1::ConfigRecord> Get(uint32_t id) const;
  // All configurations, by id.
  std::vector<qipu::v1::ConfigRecord> All() const;

 private:
  // Draws a new id for `tuple` and writes the record of `dims` under it,
  // synced; returns the record (with its id). Called without mu_.
  absl::StatusOr<qipu::v1::ConfigRecord> Persist(
      const std::string& tuple, const qipu::v1::ConfigRecord& dims);

  Store* store_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, uint32_t> by_tuple_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint32_t, qipu::v1::ConfigRecord> by_id_
      ABSL_GUARDED_BY(mu_);
  // Tuples an Intern() is writing now (not yet in by_tuple_).
  absl::flat_hash_set<std::string> writing_ ABSL_GUARDED_BY(mu_);
};

}  // namespace qipu::store

#endif  // QIPU_STORE_CONFIGS_H_

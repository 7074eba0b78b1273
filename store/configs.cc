#include "store/configs.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "store/keys.h"

namespace qipu::store {

std::string ConfigTuple(const qipu::v1::ConfigRecord& c) {
  std::string tuple = absl::StrCat(
      c.width(), "x", c.height(), "|", c.rules_key(), "|", c.komi(), "|",
      c.handicap(), "|", c.source(), "|", c.policy());
  // Only configurations whose colours played different policies have a
  // seventh part: every older tuple (a data format: the 'c' keys) stays.
  if (!c.white_policy().empty()) {
    absl::StrAppend(&tuple, "|white=", c.white_policy());
  }
  // Likewise imported records kept against their rules ("noted", "cut").
  if (!c.record().empty()) absl::StrAppend(&tuple, "|record=", c.record());
  return tuple;
}

absl::Status ConfigRegistry::Load() {
  absl::MutexLock lock(&mu_);
  Cursor it = store_->NewCursor(store_->meta(), {.prefix = ConfigKeyPrefix()});
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    auto id = DecodeConfigKey(it.key());
    if (!id) continue;
    qipu::v1::ConfigRecord rec;
    if (!rec.ParseFromArray(it.value().data(),
                            static_cast<int>(it.value().size()))) {
      return absl::DataLossError(absl::StrCat("config ", *id, " is damaged"));
    }
    by_tuple_[ConfigTuple(rec)] = *id;
    by_id_[*id] = rec;
  }
  return it.status();
}

absl::StatusOr<uint32_t> ConfigRegistry::Intern(
    const qipu::v1::ConfigRecord& dims) {
  const std::string tuple = ConfigTuple(dims);
  {
    absl::ReaderMutexLock lock(&mu_);
    auto it = by_tuple_.find(tuple);
    if (it != by_tuple_.end()) return it->second;
  }
  {
    absl::MutexLock lock(&mu_);
    // Another Intern() writing this tuple either publishes its id or fails
    // (then this one tries itself).
    auto settled = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return !writing_.contains(tuple);
    };
    mu_.Await(absl::Condition(&settled));
    auto it = by_tuple_.find(tuple);
    if (it != by_tuple_.end()) return it->second;
    writing_.insert(tuple);
  }
  // The id and the records are written, synced, without the lock: lookups
  // do not wait for these fsyncs. (Other new tuples draw their ids one at
  // a time, in Store::NextCounter().)
  absl::StatusOr<qipu::v1::ConfigRecord> rec = Persist(tuple, dims);
  absl::MutexLock lock(&mu_);
  writing_.erase(tuple);
  if (!rec.ok()) return rec.status();
  const uint32_t id = rec->config_id();
  by_tuple_[tuple] = id;
  by_id_[id] = *std::move(rec);
  return id;
}

absl::StatusOr<qipu::v1::ConfigRecord> ConfigRegistry::Persist(
    const std::string& tuple, const qipu::v1::ConfigRecord& dims) {
  QIPU_ASSIGN_OR_RETURN(const uint64_t next,
                        store_->NextCounter("next_config"));
  const uint32_t id = static_cast<uint32_t>(next);
  qipu::v1::ConfigRecord rec = dims;
  rec.set_config_id(id);
  rocksdb::WriteBatch batch;
  batch.Put(store_->meta(), ConfigKey(id), rec.SerializeAsString());
  std::string idv;
  PutFixed32BE(&idv, id);
  batch.Put(store_->meta(), ConfigTupleKey(tuple), idv);
  QIPU_RETURN_IF_ERROR(store_->Commit(&batch, Durability::kSync));
  return rec;
}

std::optional<qipu::v1::ConfigRecord> ConfigRegistry::Get(uint32_t id) const {
  absl::ReaderMutexLock lock(&mu_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

std::vector<qipu::v1::ConfigRecord> ConfigRegistry::All() const {
  absl::ReaderMutexLock lock(&mu_);
  std::vector<qipu::v1::ConfigRecord> out;
  for (const auto& [id, rec] : by_id_) out.push_back(rec);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.config_id() < b.config_id();
  });
  return out;
}

}  // namespace qipu::store

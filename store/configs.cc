#include "store/configs.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "store/keys.h"
#include "store/status.h"

namespace qipu::store {

std::string ConfigTuple(const qipu::v1::ConfigRecord& c) {
  return absl::StrCat(c.width(), "x", c.height(), "|", c.rules_key(), "|",
                      c.komi(), "|", c.handicap(), "|", c.source(), "|",
                      c.policy());
}

absl::Status ConfigRegistry::Load() {
  absl::MutexLock lock(&mu_);
  std::unique_ptr<rocksdb::Iterator> it(
      store_->db()->NewIterator(rocksdb::ReadOptions(), store_->meta()));
  const std::string prefix = ConfigKeyPrefix();
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
       it->Next()) {
    auto id =
        DecodeConfigKey(absl::string_view(it->key().data(), it->key().size()));
    if (!id) continue;
    qipu::v1::ConfigRecord rec;
    if (!rec.ParseFromArray(it->value().data(),
                            static_cast<int>(it->value().size()))) {
      return absl::DataLossError(absl::StrCat("config ", *id, " is damaged"));
    }
    by_tuple_[ConfigTuple(rec)] = *id;
    by_id_[*id] = rec;
  }
  return FromRocks(it->status(), "loading configs");
}

absl::StatusOr<uint32_t> ConfigRegistry::Intern(
    const qipu::v1::ConfigRecord& dims) {
  const std::string tuple = ConfigTuple(dims);
  {
    absl::ReaderMutexLock lock(&mu_);
    auto it = by_tuple_.find(tuple);
    if (it != by_tuple_.end()) return it->second;
  }
  absl::MutexLock lock(&mu_);
  auto it = by_tuple_.find(tuple);
  if (it != by_tuple_.end()) return it->second;
  auto next = store_->NextCounter("next_config");
  if (!next.ok()) return next.status();
  const uint32_t id = static_cast<uint32_t>(*next);
  qipu::v1::ConfigRecord rec = dims;
  rec.set_config_id(id);
  rocksdb::WriteBatch batch;
  batch.Put(store_->meta(), ConfigKey(id), rec.SerializeAsString());
  std::string idv;
  PutFixed32BE(&idv, id);
  batch.Put(store_->meta(), ConfigTupleKey(tuple), idv);
  rocksdb::WriteOptions w;
  w.sync = true;
  const absl::Status s =
      FromRocks(store_->db()->Write(w, &batch), "storing config");
  store_->RecordWrite(s);
  if (!s.ok()) return s;
  by_tuple_[tuple] = id;
  by_id_[id] = rec;
  return id;
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

#include "store/store.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "rocksdb/cache.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/table.h"
#include "rocksdb/write_buffer_manager.h"
#include "spdlog/spdlog.h"
#include "store/keys.h"
#include "store/memtable.h"
#include "store/merge_operators.h"
#include "store/status.h"

namespace qipu::store {
namespace {

rocksdb::ColumnFamilyOptions CfOptions(
    const StoreOptions& o, const std::shared_ptr<rocksdb::Cache>& cache,
    bool whole_key_bloom) {
  rocksdb::ColumnFamilyOptions cf;
  cf.write_buffer_size = o.write_buffer_bytes;
  cf.max_write_buffer_number = 3;
  cf.compression = rocksdb::kLZ4Compression;
  cf.bottommost_compression = rocksdb::kZSTD;
  cf.level_compaction_dynamic_level_bytes = true;
  rocksdb::BlockBasedTableOptions t;
  t.block_cache = cache;
  t.cache_index_and_filter_blocks = true;
  t.pin_l0_filter_and_index_blocks_in_cache = true;
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  t.whole_key_filtering = whole_key_bloom;
  t.format_version = 5;
  // Partitioned index and filters (4 KB partitions, top level pinned): a
  // lookup loads a few small blocks instead of a whole file's filter and
  // index (megabytes for a 64 MB file), which thrash the cache's shards.
  t.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  t.partition_filters = true;
  t.metadata_block_size = 4096;
  t.pin_top_level_index_and_filter = true;
  t.cache_index_and_filter_blocks_with_high_priority = true;
  cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  return cf;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Store>> Store::Open(const std::string& dir,
                                                   const StoreOptions& o) {
  std::unique_ptr<Store> s(new Store());
  s->dir_ = dir;
  s->options_ = o;
  s->cache_ = rocksdb::NewLRUCache(o.block_cache_bytes);

  rocksdb::DBOptions db_options;
  db_options.create_if_missing = o.create_if_missing;
  db_options.create_missing_column_families = true;
  db_options.max_background_jobs = o.max_background_jobs;
  db_options.write_buffer_manager =
      std::make_shared<rocksdb::WriteBufferManager>(o.total_write_buffer_bytes,
                                                    s->cache_);
  // RocksDB's info log goes to spdlog, not to a LOG file in `dir` (see
  // rocks_events.h); its background errors to health_.
  db_options.info_log = NewSpdlogRocksLogger(dir);
  db_options.listeners.push_back(NewHealthListener(&s->health_, dir));
  if (o.env != nullptr) db_options.env = o.env;
  db_options.enable_pipelined_write = true;
  // Required by the dual memtable of the positions CF; qipu has a single
  // writer thread (the ingest committer) anyway.
  db_options.allow_concurrent_memtable_write = false;

  rocksdb::ColumnFamilyOptions meta = CfOptions(o, s->cache_, true);
  rocksdb::ColumnFamilyOptions games = CfOptions(o, s->cache_, true);
  games.optimize_filters_for_hits = false;
  rocksdb::ColumnFamilyOptions positions = CfOptions(o, s->cache_, false);
  positions.prefix_extractor.reset(
      rocksdb::NewFixedPrefixTransform(kPositionPrefixLength));
  positions.merge_operator = NewPositionMergeOperator();
  // Position keys are random hashes arriving ~30 per game: the dual
  // memtable (store/memtable.h) inserts into prefix buckets, serves the
  // queries' prefix reads from them, and flushes from a vector sorted once.
  // The bucket array is allocated per memtable up front: keep it at an
  // eighth of the memtable so small write buffers still work.
  positions.memtable_factory =
      NewDualMemTableFactory(std::max<size_t>(1024, o.write_buffer_bytes / 64));
  rocksdb::ColumnFamilyOptions aggregates = CfOptions(o, s->cache_, true);
  aggregates.merge_operator = NewAggregateMergeOperator();
  aggregates.write_buffer_size =
      std::min<size_t>(o.write_buffer_bytes, 8u << 20);
  rocksdb::ColumnFamilyOptions jobs = CfOptions(o, s->cache_, true);
  jobs.merge_operator = NewUint64AddOperator();
  jobs.write_buffer_size = std::min<size_t>(o.write_buffer_bytes, 8u << 20);

  std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {
      {rocksdb::kDefaultColumnFamilyName, meta},
      {kGamesCf, games},
      {kPositionsCf, positions},
      {kAggregatesCf, aggregates},
      {kJobsCf, jobs},
  };
  rocksdb::DB* raw = nullptr;
  rocksdb::Status st =
      rocksdb::DB::Open(db_options, dir, cfs, &s->handles_, &raw);
  if (!st.ok()) {
    if (st.IsIOError() && st.ToString().find("lock") != std::string::npos) {
      return absl::UnavailableError(absl::StrCat(
          "database ", dir, " is in use by another process: ", st.ToString()));
    }
    return FromRocks(st, absl::StrCat("opening database ", dir));
  }
  s->db_.reset(raw);

  // Format version: written on creation, checked on every open.
  auto version = s->Get(s->meta(), FormatVersionKey());
  if (!version.ok()) return version.status();
  if (!version->has_value()) {
    rocksdb::WriteOptions w;
    w.sync = true;
    st = s->db_->Put(w, s->meta(), FormatVersionKey(),
                     absl::StrCat(kFormatVersion));
    if (!st.ok()) return FromRocks(st, "writing format version");
  } else {
    uint32_t v = 0;
    if (!absl::SimpleAtoi(**version, &v) || v != kFormatVersion) {
      return absl::FailedPreconditionError(
          absl::StrCat("database ", dir, " has format version '", **version,
                       "'; this qipu reads version ", kFormatVersion));
    }
  }
  PositionIndexOptions io = o.index;
  if (io.build_dir.empty()) io.build_dir = dir + "/index-build";
  io.health = &s->health_;
  s->index_ = std::make_unique<PositionIndex>(
      s->db_.get(), s->meta(), s->games(), s->positions(), io);
  if (absl::Status st = s->index_->Recover(); !st.ok()) {
    return absl::Status(st.code(),
                        absl::StrCat("database ", dir,
                                     ": recovering the position index: ",
                                     st.message()));
  }
  return s;
}

Store::~Store() {
  if (db_ == nullptr) return;
  if (index_ != nullptr) {
    if (absl::Status st = index_->Close(); !st.ok()) {
      spdlog::warn("database {}: position index: {}", dir_, st.ToString());
    }
    index_.reset();
  }
  for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
  handles_.clear();
  db_->Close();
}

void Store::MaybeResume() {
  if (!health_.ShouldTryResume(options_.resume_every)) return;
  const rocksdb::Status st = db_->Resume();
  if (st.ok()) {
    spdlog::info("database {}: writes resumed", dir_);
    health_.RecordSuccess();
  } else if (st.severity() >= rocksdb::Status::Severity::kFatalError) {
    health_.RecordError(
        FromRocks(st, absl::StrCat("database ", dir_, ": resuming writes")),
        /*fatal=*/true);
  } else {
    spdlog::debug("database {}: resume failed: {}", dir_, st.ToString());
  }
}

absl::Status Store::Commit(rocksdb::WriteBatch* batch) {
  if (health_.failing()) MaybeResume();
  rocksdb::WriteOptions w;
  w.sync = options_.sync;
  absl::Status s = FromRocks(db_->Write(w, batch), "committing batch");
  RecordWrite(s);
  return s;
}

void Store::RecordWrite(const absl::Status& s) {
  if (s.ok()) {
    // A write through the WAL says nothing of the index's files.
    if (index_ != nullptr && index_->failing()) return;
    health_.RecordSuccess();
  } else {
    health_.RecordError(absl::Status(
        s.code(), absl::StrCat("database ", dir_, ": ", s.message())));
  }
}

absl::StatusOr<std::optional<std::string>> Store::Get(
    rocksdb::ColumnFamilyHandle* cf, absl::string_view key) const {
  std::string value;
  rocksdb::Status st = db_->Get(rocksdb::ReadOptions(), cf,
                                rocksdb::Slice(key.data(), key.size()), &value);
  if (st.IsNotFound()) return std::optional<std::string>();
  if (!st.ok()) return FromRocks(st, "reading");
  return std::optional<std::string>(std::move(value));
}

absl::StatusOr<uint64_t> Store::NextCounter(absl::string_view name) {
  absl::MutexLock lock(&counter_mu_);
  const std::string key = CounterKey(name);
  auto current = Get(meta(), key);
  if (!current.ok()) return current.status();
  uint64_t v = 0;
  if (current->has_value()) {
    auto decoded = DecodeUint64Value(**current);
    if (!decoded) {
      return absl::DataLossError(absl::StrCat("counter ", name, " is damaged"));
    }
    v = *decoded;
  }
  ++v;
  rocksdb::WriteOptions w;
  w.sync = true;
  const absl::Status st =
      FromRocks(db_->Put(w, meta(), key, EncodeUint64Value(v)),
                absl::StrCat("advancing counter ", name));
  RecordWrite(st);
  if (!st.ok()) return st;
  return v;
}

absl::Status Store::Flush() {
  if (absl::Status st = index_->Flush(); !st.ok()) return st;
  rocksdb::FlushOptions f;
  f.wait = true;
  return FromRocks(db_->Flush(f, handles_), "flushing");
}

StoreSizes Store::Sizes() const {
  StoreSizes out;
  for (auto* h : handles_) {
    StoreSizes::Cf cf;
    cf.name = h->GetName();
    db_->GetIntProperty(h, "rocksdb.total-sst-files-size", &cf.sst_bytes);
    db_->GetIntProperty(h, "rocksdb.cur-size-all-mem-tables",
                        &cf.memtable_bytes);
    db_->GetIntProperty(h, "rocksdb.estimate-num-keys", &cf.estimated_keys);
    out.column_families.push_back(cf);
  }
  out.block_cache_usage = cache_->GetUsage();
  out.index = index_->stats();
  return out;
}

}  // namespace qipu::store

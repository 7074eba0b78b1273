// Store: qipu's RocksDB -- opening it with its column families, options
// and merge operators, checking the format version, committing batches
// durably, and a few typed helpers. Key layouts are in keys.h.
//
// Memory is bounded by configuration, not by the data: one shared LRU
// block cache and a write-buffer manager that caps all memtables together.
// The positions column family is written through store::PositionIndex,
// which opening the store also recovers.
//
// Compression: LZ4 on upper levels, ZSTD at the bottommost level. Point
// lookups (games) use whole-key bloom filters; the position index uses a
// prefix extractor over the position (all buckets of a position are one
// prefix) with prefix bloom filters.
//
// Thread-safety: all methods are thread-safe (RocksDB is).
#ifndef QIPU_STORE_STORE_H_
#define QIPU_STORE_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "rocksdb/db.h"
#include "rocksdb/write_batch.h"
#include "store/position_index.h"
#include "store/rocks_events.h"

namespace qipu::store {

struct StoreOptions {
  // Shared block cache, bytes.
  size_t block_cache_bytes = 128u << 20;
  // Memtable size per column family, bytes.
  size_t write_buffer_bytes = 32u << 20;
  // Cap on all memtables together, bytes.
  size_t total_write_buffer_bytes = 128u << 20;
  // Background flush + compaction threads.
  int max_background_jobs = 2;
  // fsync the WAL on every Commit() (acknowledged writes survive a power
  // loss); false keeps them only across process crashes.
  bool sync = true;
  bool create_if_missing = true;
  // The environment RocksDB does its file I/O through; null = the default.
  // Not owned; must outlive the Store (tests inject faults through it).
  rocksdb::Env* env = nullptr;
  // How often Commit() retries DB::Resume() while writes are stopped by a
  // background error (a full disk that has been freed since, say).
  absl::Duration resume_every = absl::Seconds(2);
  // The position index's buffer and flushes (store/position_index.h); its
  // build_dir defaults to DIR/index-build.
  PositionIndexOptions index;
};

// Approximate on-disk and in-memory sizes, for metrics.
struct StoreSizes {
  struct Cf {
    std::string name;
    uint64_t sst_bytes = 0;
    uint64_t memtable_bytes = 0;
    uint64_t estimated_keys = 0;
  };
  std::vector<Cf> column_families;
  uint64_t block_cache_usage = 0;
  // The position index's buffer and flushes.
  PositionIndexStats index;
};

class Store {
 public:
  // Opens (or creates) the database in `dir`. FailedPrecondition when it
  // holds another format version; Unavailable when another process has it
  // open (RocksDB's LOCK).
  static absl::StatusOr<std::unique_ptr<Store>> Open(
      const std::string& dir, const StoreOptions& options);
  ~Store();

  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  rocksdb::DB* db() const { return db_.get(); }
  rocksdb::ColumnFamilyHandle* meta() const { return handles_[0]; }
  rocksdb::ColumnFamilyHandle* games() const { return handles_[1]; }
  rocksdb::ColumnFamilyHandle* positions() const { return handles_[2]; }
  rocksdb::ColumnFamilyHandle* aggregates() const { return handles_[3]; }
  rocksdb::ColumnFamilyHandle* jobs() const { return handles_[4]; }
  // The write path and buffer of the positions column family: ingest adds
  // entries there, queries read through it. Owned by the store.
  PositionIndex& position_index() const { return *index_; }
  const std::string& dir() const { return dir_; }

  // Writes `batch` atomically; durable (WAL, fsync per options) on OK.
  // While health() reports an error, first retries DB::Resume() (at most
  // every options.resume_every); a failure is recorded in health().
  absl::Status Commit(rocksdb::WriteBatch* batch);

  // Whether the database takes writes: OK, or the error (a full disk, a
  // deleted directory, a failed flush) that stopped them, until a later
  // write succeeds. Writes made directly through db() should report their
  // outcome with RecordWrite().
  const StorageHealth& health() const { return health_; }
  // Records the outcome of a write made through db() directly.
  void RecordWrite(const absl::Status& s);

  // The value at `key`, or nullopt when absent.
  absl::StatusOr<std::optional<std::string>> Get(
      rocksdb::ColumnFamilyHandle* cf, absl::string_view key) const;

  // Atomically increments counter `name` (default CF) and returns the new
  // value (first call returns 1). Durable before it returns.
  absl::StatusOr<uint64_t> NextCounter(absl::string_view name);

  // Flushes the position index's buffer and the memtables to SST files
  // (tests, benchmarks, shutdown).
  absl::Status Flush();

  StoreSizes Sizes() const;

 private:
  Store() = default;

  // Commit()'s DB::Resume() attempt while writes are stopped.
  void MaybeResume();

  std::string dir_;
  StoreOptions options_;
  // Before db_: the listener RocksDB holds points here until Close().
  StorageHealth health_;
  std::unique_ptr<rocksdb::DB> db_;
  // meta (default), games, positions, aggregates, jobs.
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  // After db_ and handles_, closed before them.
  std::unique_ptr<PositionIndex> index_;
  std::shared_ptr<rocksdb::Cache> cache_;
  absl::Mutex counter_mu_;
};

}  // namespace qipu::store

#endif  // QIPU_STORE_STORE_H_

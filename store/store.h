// Store: qipu's RocksDB -- opening it with its column families, options
// and merge operators, checking the format version, and every read and
// write the rest of qipu makes: batches committed durably, point writes,
// point and batched lookups, cursors over a column family or a prefix of
// it, compaction. Every write records its outcome in health(), so callers
// never report it themselves. Key layouts are in keys.h.
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
// Thread-safety: all methods are thread-safe (RocksDB is). A Cursor is
// used by one thread at a time.
#ifndef QIPU_STORE_STORE_H_
#define QIPU_STORE_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"
#include "store/backup.h"
#include "store/player_index.h"
#include "store/position_index.h"
#include "store/rocks_events.h"
#include "store/write_set.h"

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

// Whether a write waits until it is on the disk.
enum class Durability {
  // As StoreOptions::sync says: fsync the WAL unless it is false.
  kDefault,
  // Always fsync: what is handed out once the write returns (counters,
  // configuration ids) must survive a power loss whatever the options.
  kSync,
  // Never fsync: survives a process crash, not a power loss (leases, which
  // expire anyway).
  kNoSync,
};

// What a Cursor reads.
struct ScanOptions {
  // Only keys that start with this (empty: the whole column family).
  std::string prefix;
  // Whether the blocks read go into the block cache; false for one pass
  // over a whole family (export), which would only evict the hot blocks.
  bool fill_cache = true;
  // Read-ahead for long sequential scans, bytes; 0 = RocksDB's default.
  size_t readahead_bytes = 0;
};

// A cursor over the keys of one column family (optionally one prefix of
// it), in key order, on an implicit snapshot taken when it was made.
// Typical use:
//   store::Cursor it = store.Scan(Records::kGames, {.prefix = p});
//   for (it.SeekToFirst(); it.Valid(); it.Next()) Use(it.key(), it.value());
//   return it.status();
// Movable; one thread at a time; must not outlive the Store.
class Cursor {
 public:
  Cursor(Cursor&&);
  Cursor& operator=(Cursor&&);
  ~Cursor();

  // To the first key (under the prefix).
  void SeekToFirst();
  // To the first key at or after `target` (and under the prefix).
  void Seek(absl::string_view target);
  // True at a key; false past the last one (or the prefix's) or on error.
  bool Valid() const;
  // To the last key (under the prefix); with a prefix the iterator must
  // have its upper bound (NewCursor() sets it).
  void SeekToLast();
  // To the next key. Precondition: Valid().
  void Next();
  // To the previous key. Precondition: Valid().
  void Prev();
  // The current entry; valid until the cursor moves. Precondition: Valid().
  absl::string_view key() const;
  absl::string_view value() const;
  // OK, or the read error that ended the scan (see store/status.h).
  absl::Status status() const;

 private:
  friend class Store;
  struct State;
  explicit Cursor(std::unique_ptr<State> state);
  // Heap-held: the RocksDB iterator points at the upper bound in it.
  std::unique_ptr<State> state_;
};

class Store {
 public:
  // Opens (or creates) the database in `dir`. A database of format
  // version kUpgradableFormatVersion is upgraded first (the pattern index
  // written for every game: BackfillPatternIndex). FailedPrecondition when
  // it holds another format version; Unavailable when another process has it
  // open (RocksDB's LOCK).
  static absl::StatusOr<std::unique_ptr<Store>> Open(
      const std::string& dir, const StoreOptions& options);
  ~Store();

  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The write path and buffer of the positions column family: ingest adds
  // entries there, queries read through it. Owned by the store.
  PositionIndex& position_index() const { return *index_; }
  const std::string& dir() const { return dir_; }

  // Writes `writes` atomically; durable as `durability` says on OK. While
  // health() reports an error, first retries DB::Resume() (at most every
  // options.resume_every). Like every write below, records its outcome in
  // health(). `writes` is left as it was (commit it again or Clear() it).
  absl::Status Commit(WriteSet* writes,
                      Durability durability = Durability::kDefault);
  // Writes one record, as Commit() of a set holding only it.
  // Precondition: `key` is a key of `kind` (keys.h).
  absl::Status Put(Records kind, absl::string_view key, absl::string_view value,
                   Durability durability = Durability::kDefault);
  // Deletes one record, as Commit() of a set holding only the deletion.
  absl::Status Delete(Records kind, absl::string_view key,
                      Durability durability = Durability::kDefault);

  // Whether the database takes writes: OK, or the error (a full disk, a
  // deleted directory, a failed flush) that stopped them, until a later
  // write succeeds.
  const StorageHealth& health() const { return health_; }

  // The record of `kind` at `key`, or nullopt when absent.
  absl::StatusOr<std::optional<std::string>> Get(Records kind,
                                                 absl::string_view key) const;
  // Whether each of `keys` is a record of `kind`, looked up in one batch
  // (RocksDB MultiGet): element i answers keys[i]. Errors: a lookup that
  // failed.
  absl::StatusOr<std::vector<bool>> Contains(
      Records kind, const std::vector<absl::string_view>& keys) const;
  // A cursor over the records of `kind` in key order: all of them, or
  // those under options.prefix (which must then be a prefix of keys of
  // `kind`, e.g. JobGamesPrefix()).
  Cursor Scan(Records kind, const ScanOptions& options = {}) const;

  // Atomically increments counter `name` (default CF) and returns the new
  // value (first call returns 1). Durable before it returns.
  absl::StatusOr<uint64_t> NextCounter(absl::string_view name);

  // Flushes the position index's buffer and the memtables to SST files
  // (tests, benchmarks, shutdown).
  absl::Status Flush();
  // Compacts the whole position index down to its last level (a database
  // at rest, as background compaction leaves it eventually); waits for it
  // (benchmarks).
  absl::Status CompactPositions();

  // Approximate sizes of every family, the block cache and the index's
  // buffer (metrics).
  StoreSizes Sizes() const;

  // Takes a consistent online backup into `backup_dir` (created when
  // missing; a BackupEngine directory, see backup.h) while writes go on:
  // flushes the position index's buffer, then copies every column family
  // and the WAL up to one point. The backup holds exactly the batches
  // committed before that point. One backup at a time per store (others
  // wait). Defined in backup.cc.
  absl::StatusOr<BackupEntry> Backup(const std::string& backup_dir);

 private:
  Store() = default;

  friend class WriteSet;
  friend class GameBatch;
  friend class ConfigRegistry;
  friend class StoreTestPeer;  // tests/store: the families themselves
  friend absl::StatusOr<uint64_t> BackfillPatternIndex(Store* store);
  friend absl::StatusOr<uint64_t> BackfillPlayerIndex(
      Store* store, const ConfigOfGame& config_of);
  friend absl::StatusOr<bool> HasPlayerIndex(const Store& store);

  // The column families (see keys.h). Owned by the store.
  rocksdb::ColumnFamilyHandle* meta() const { return handles_[0]; }
  rocksdb::ColumnFamilyHandle* games() const { return handles_[1]; }
  rocksdb::ColumnFamilyHandle* positions() const { return handles_[2]; }
  rocksdb::ColumnFamilyHandle* aggregates() const { return handles_[3]; }
  rocksdb::ColumnFamilyHandle* jobs() const { return handles_[4]; }
  rocksdb::ColumnFamilyHandle* patterns() const { return handles_[5]; }
  rocksdb::ColumnFamilyHandle* players() const { return handles_[6]; }
  // The family that holds records of `kind`.
  rocksdb::ColumnFamilyHandle* FamilyOf(Records kind) const;

  // The family-level operations behind the typed ones.
  absl::Status Commit(rocksdb::WriteBatch* batch, Durability durability);
  absl::Status Put(rocksdb::ColumnFamilyHandle* cf, absl::string_view key,
                   absl::string_view value, Durability durability);
  absl::Status Delete(rocksdb::ColumnFamilyHandle* cf, absl::string_view key,
                      Durability durability);
  absl::StatusOr<std::optional<std::string>> Get(
      rocksdb::ColumnFamilyHandle* cf, absl::string_view key) const;
  absl::StatusOr<std::vector<bool>> Contains(
      rocksdb::ColumnFamilyHandle* cf,
      const std::vector<absl::string_view>& keys) const;
  Cursor NewCursor(rocksdb::ColumnFamilyHandle* cf,
                   const ScanOptions& options = {}) const;
  // Compacts all of `cf` (its last level too); waits for it.
  absl::Status Compact(rocksdb::ColumnFamilyHandle* cf);

  // Write()'s DB::Resume() attempt while writes are stopped.
  void MaybeResume();
  // Every write: `batch` with `durability`, its outcome recorded in
  // health_; `context` prefixes an error.
  absl::Status Write(rocksdb::WriteBatch* batch, Durability durability,
                     absl::string_view context);
  // Records the outcome of a write in health_.
  void RecordWrite(const absl::Status& s);

  std::string dir_;
  StoreOptions options_;
  // Before db_: the listener RocksDB holds points here until Close().
  StorageHealth health_;
  std::unique_ptr<rocksdb::DB> db_;
  // meta (default), games, positions, aggregates, jobs, patterns, players.
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  // After db_ and handles_, closed before them.
  std::unique_ptr<PositionIndex> index_;
  std::shared_ptr<rocksdb::Cache> cache_;
  absl::Mutex counter_mu_;
  // Serialises Backup()s (a BackupEngine directory takes one writer).
  absl::Mutex backup_mu_;
};

}  // namespace qipu::store

#endif  // QIPU_STORE_STORE_H_

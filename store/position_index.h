// PositionIndex: the write path of the opening index (the positions column
// family) and the part of it not yet written.
//
// Why not WriteBatch merges: position keys are random hashes, about 30 per
// game and nearly all distinct, so through RocksDB's memtable the index
// cost more than everything else a game costs the coordinator: an ordered
// insert per entry, a comparison sort of the whole memtable at every
// flush, and the WAL bytes of every entry. Here a committed batch's
// entries become one sorted run in memory (a sort of fixed-width integer
// keys). When the runs reach flush_bytes, a background thread merges them
// into one SST file (rocksdb::SstFileWriter, entries as merge operands)
// and ingests it (IngestExternalFile): no memtable, no WAL, one write.
//
// Durability. A game is durable when its batch commits; its index entries
// are in memory until the next flush. So each batch's WriteBatch also
// records the batch's games under UnindexedKey(batch) (default CF, written
// by the committer with AppendUnindexedGame()); every SST file carries
// IndexWatermarkKey() = the last batch in it, and its ingestion is atomic.
// Recover() (Store::Open() calls it) re-indexes the games of each recorded
// batch above the watermark from the games column family and deletes the
// records at or below it: after a crash each game is indexed exactly once.
//
// Reads. ForEachUnderPrefix() sees the files and the buffered runs as one
// consistent view: a flush ingests its file and drops its runs under the
// same lock under which a reader takes its iterator and its runs.
//
// Thread-safety: NextBatch() and Add() from one writer thread at a time
// (the ingest committer); every other method from any thread.
#ifndef QIPU_STORE_POSITION_INDEX_H_
#define QIPU_STORE_POSITION_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "rocksdb/db.h"
#include "rocksdb/write_batch.h"
#include "store/game_id.h"
#include "store/indexer.h"
#include "store/rocks_events.h"

namespace qipu::store {

struct PositionIndexOptions {
  // Buffered bytes (keys, values, bookkeeping) that start a flush: about
  // 800,000 entries, the first 30 plies of 27,000 games.
  size_t flush_bytes = size_t{48} << 20;
  // Buffered bytes beyond which Add() waits for a flush (back-pressure).
  size_t max_bytes = size_t{128} << 20;
  // Directory where SST files are built before ingestion; on the
  // database's filesystem (ingestion moves them). Created when missing;
  // files left in it are removed at open.
  std::string build_dir;
  // Pause after a failed flush before the next attempt.
  absl::Duration retry_after = absl::Seconds(1);
  // Where flush outcomes are reported (the store's health: a flush that
  // fails means the database no longer takes writes). Not owned; may be
  // null.
  StorageHealth* health = nullptr;
};

// Counters, for metrics and tests. Plain value.
struct PositionIndexStats {
  // Entries and bytes buffered now, in how many runs.
  uint64_t buffered_entries = 0;
  uint64_t buffered_bytes = 0;
  uint64_t runs = 0;
  // Files ingested and entries written to them (after folding).
  uint64_t flushes = 0;
  uint64_t flushed_entries = 0;
  uint64_t failed_flushes = 0;
  // Games re-indexed by Recover().
  uint64_t recovered_games = 0;
};

// The games of one committed batch, as its UnindexedKey() record keeps
// them: enough to rebuild the batch's index entries from the stored games.
struct UnindexedGame {
  GameId id;
  // Plies indexed (min(index depth, moves the rules played)).
  uint32_t plies = 0;
  uint32_t config_id = 0;
  uint32_t day = 0;
  friend bool operator==(const UnindexedGame&, const UnindexedGame&) = default;
};
// Appends `g` to an UnindexedKey() value.
void AppendUnindexedGame(const UnindexedGame& g, std::string* value);
// Parses an UnindexedKey() value; DataLoss when malformed.
absl::StatusOr<std::vector<UnindexedGame>> DecodeUnindexedGames(
    absl::string_view value);

class PositionIndex {
 public:
  // Does not own db or the handles (which must outlive it). Starts the
  // flusher thread. Call Recover() before the first Add().
  PositionIndex(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* meta,
                rocksdb::ColumnFamilyHandle* games,
                rocksdb::ColumnFamilyHandle* positions,
                const PositionIndexOptions& options);
  // Close().
  ~PositionIndex();

  PositionIndex(const PositionIndex&) = delete;
  PositionIndex& operator=(const PositionIndex&) = delete;

  // Reads the watermark, re-indexes the games of the batches recorded
  // above it, writes them (a flush) and deletes every record. Errors:
  // reading failed, or a recorded game is missing or damaged (DataLoss,
  // naming it).
  absl::Status Recover();

  // The number of the next batch to commit (for its UnindexedKey()).
  uint64_t NextBatch();

  // Whether the buffer can take another batch: OK at once below
  // max_bytes; else waits up to `wait` for a flush to make room, and
  // returns Unavailable (naming the failed flush, if one failed) when none
  // did. The committer asks before committing a batch with entries, so
  // that a database that stops taking index files stops taking games
  // instead of growing the buffer.
  absl::Status WaitForRoom(absl::Duration wait);

  // True while the last flush attempt failed.
  bool failing() const;

  // Adds the entries of committed batch `batch` (whose UnindexedKey()
  // record is durable); never blocks. Empties *ops.
  void Add(uint64_t batch, PositionOps* ops);

  // Writes everything added so far to the positions column family and
  // waits. The flush's error when it failed.
  absl::Status Flush();

  // Flushes, stops the flusher and refuses further Add()s. Idempotent;
  // returns the final flush's status.
  absl::Status Close();

  // Calls fn(key, value) for every entry whose key starts with `prefix`:
  // first those of the column family (values merged), then the buffered
  // ones (one per run holding the key, unmerged). Returns early when fn
  // returns false. Errors: the iterator's.
  using EntryFn =
      std::function<bool(absl::string_view key, absl::string_view value)>;
  absl::Status ForEachUnderPrefix(absl::string_view prefix,
                                  const EntryFn& fn) const;

  PositionIndexStats stats() const;

  // A sorted run of buffered entries (internal; defined in the .cc file).
  struct Run;

 private:
  using Runs = std::vector<std::shared_ptr<const Run>>;

  void FlushLoop();
  // Writes `runs` merged into one SST file at *path; *entries = entries
  // written.
  absl::Status WriteFile(const Runs& runs, uint64_t watermark,
                         std::string* path, uint64_t* entries) const;
  // Adds `runs` merged, then the watermark, to *batch: what WriteFile()
  // writes, for one atomic write instead of an ingestion once the store's
  // health says ingestion is unsafe (StorageHealth::stopped_once());
  // *entries = entries added.
  absl::Status BatchEntries(const Runs& runs, uint64_t watermark,
                            rocksdb::WriteBatch* batch,
                            uint64_t* entries) const;
  // Deletes the UnindexedKey() records up to `batch` (best effort).
  void DeleteRecords(uint64_t batch) const;

  rocksdb::DB* const db_;
  rocksdb::ColumnFamilyHandle* const meta_;
  rocksdb::ColumnFamilyHandle* const games_;
  rocksdb::ColumnFamilyHandle* const positions_;
  const PositionIndexOptions options_;

  mutable absl::Mutex mu_;
  // Buffered runs, oldest first; the first `flushing_` are being written.
  Runs runs_ ABSL_GUARDED_BY(mu_);
  size_t flushing_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t buffered_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t buffered_entries_ ABSL_GUARDED_BY(mu_) = 0;
  // Next batch number; the last batch added; the last batch in the files.
  uint64_t next_batch_ ABSL_GUARDED_BY(mu_) = 1;
  uint64_t last_added_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t flushed_through_ ABSL_GUARDED_BY(mu_) = 0;
  // A Flush() waits for batches up to this.
  uint64_t flush_wanted_ ABSL_GUARDED_BY(mu_) = 0;
  // Error of the last flush attempt (OK after a success).
  absl::Status flush_error_ ABSL_GUARDED_BY(mu_);
  // Bumped by every flush attempt, for waiters.
  uint64_t attempts_ ABSL_GUARDED_BY(mu_) = 0;
  bool closing_ ABSL_GUARDED_BY(mu_) = false;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  PositionIndexStats stats_ ABSL_GUARDED_BY(mu_);
  // Numbers the files built.
  uint64_t file_number_ ABSL_GUARDED_BY(mu_) = 0;
  std::thread flusher_;
};

}  // namespace qipu::store

#endif  // QIPU_STORE_POSITION_INDEX_H_

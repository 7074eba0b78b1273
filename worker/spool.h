// Spool: the worker's durable record of finished games that the
// coordinator has not yet acknowledged. Every game is appended and synced
// here before it is uploaded, and forgotten once its ack arrives, so a
// crash, a kill or a lost connection never loses a game: the next run (or
// the next stream) resends whatever is still pending.
//
// On-disk format, version 1 (a contract: a newer worker must read an older
// spool). Directory `dir` holds
//   LOCK           flock()ed by the one process using the spool;
//   spool.log      the log (below);
//   spool.log.tmp  a compaction in progress (ignored and removed at open);
//   spool.log.damaged  a copy of the last log that had corrupted records.
// spool.log = a 16-byte header ("QIPUSPL\0", fixed32 version = 1,
// fixed32 0) and then records, all integers little-endian:
//   fixed32 magic "QPSR" | fixed32 n | fixed32 MaskCrc(Crc32c(body)) |
//   body (n bytes) = u8 type | payload
//   type 1 GAME: fixed64 job | fixed64 index | fixed32 m | lease_id (m
//                bytes) | the serialized qipu.v1.Game (rest of the body)
//   type 2 ACK:  fixed64 job | fixed64 index
// Replaying the log in order gives the pending set: GAME adds its key
// (unless already pending), ACK removes it. A crash can tear only the last
// record; a torn tail is dropped. A record whose checksum fails anywhere
// else is skipped with a warning and the reader resynchronises on the next
// magic, so one bad sector costs the games in it, never the spool.
//
// Appends are buffered by the kernel; Sync() makes them durable (the
// log's name is durable since the directory sync after its last rewrite),
// and the uploader calls it before sending any game appended before it
// (once per group of games or less often: see uploader.h). Every file call
// goes through a SpoolFs (spool_fs.h): the real file system, or a test's.
// A group is appended with one write() (AppendBatch()), and the acks of
// one ack message with one more (AckBatch()): a write() costs more than
// checksumming and copying a 9x9 game, so per-game syscalls would
// dominate a fast worker. A write that fails part-way leaves whole and
// torn records that Open() treats as above (a torn record followed by
// others is skipped as damage; a GAME record repeated by the retry of a
// pending key is ignored).
// ACK records are not synced on their own: losing one after a crash only
// resends a game, which the coordinator answers as a duplicate. When dead
// bytes (acked games and ack records) outgrow max(compact_min_bytes, live
// bytes) the log is rewritten with only the pending games (temp file,
// fsync, rename, fsync of the directory); Open() always rewrites, which
// also discards torn tails and damaged records.
//
// Pending games are kept in memory (serialized, about 1-2 KB each on
// 19x19), each in an immutable shared SpooledGame: the uploader sends
// from it without copying, and may keep it after the ack. The uploader
// bounds how many games there can be.
#ifndef QIPU_WORKER_SPOOL_H_
#define QIPU_WORKER_SPOOL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "worker/game_queue.h"
#include "worker/spool_fs.h"

namespace qipu::worker {

// A pending game as the spool holds it: immutable, shared with whoever
// sends it (the pointer keeps it alive after an ack).
using SpooledGame = std::shared_ptr<const FinishedGame>;

struct SpoolOptions {
  // Directory of the spool; created (one level) when missing.
  std::string dir;
  // Dead bytes tolerated before a compaction, at least; more when the
  // pending games themselves take more.
  int64_t compact_min_bytes = int64_t{4} << 20;
  // The file system the spool lives on; null = SpoolFs::Default() (the
  // real one). Not owned; must outlive the Spool (tests simulate power
  // losses through it).
  SpoolFs* fs = nullptr;
};

// What Open() found and what has happened since. Plain value.
struct SpoolStats {
  // Games pending now.
  size_t pending = 0;
  // Pending games found by Open() (left by an earlier run).
  size_t recovered = 0;
  // Bytes of torn tail dropped by Open().
  int64_t torn_bytes = 0;
  // Damaged records (or runs of bytes) skipped by Open().
  int64_t skipped_records = 0;
  // Size of spool.log now, header included.
  int64_t file_bytes = 0;
  // Rewrites of the log, Open()'s included.
  uint64_t compactions = 0;
  // Sync() calls that flushed appends (fdatasync), since Open().
  uint64_t syncs = 0;
};

// Thread-safe (one mutex); one Spool per directory and process (Open()
// takes an exclusive lock on dir/LOCK: flock on the real file system).
class Spool {
 public:
  // Format version written to and accepted in the header.
  static constexpr uint32_t kFormatVersion = 1;
  // Largest record body accepted (a 25x25 game is a few KB).
  static constexpr uint32_t kMaxRecordBytes = 16u << 20;

  // Opens (creating when needed) the spool in options.dir, loads the
  // pending games, and rewrites the log. A damaged log is not an error:
  // bad records are skipped with a warning and the log is kept as
  // spool.log.damaged. FailedPrecondition when another process holds the
  // spool; errno-mapped errors when the directory or files cannot be
  // created, read or written.
  static absl::StatusOr<std::unique_ptr<Spool>> Open(
      const SpoolOptions& options);

  // Syncs and closes the log and releases the lock.
  ~Spool();

  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  // Appends every game of *games (IN/OUT) to the log with one write(),
  // oldest first (not yet durable: see Sync()). Games whose key is
  // already pending (in the spool, or earlier in *games) are dropped,
  // nothing written for them. On success the games are moved into the
  // spool, *games is cleared, the games added are appended to *added
  // (OUT, may be null) in order, and their number is returned. On a write
  // error the error is returned, *games is untouched and the spool is
  // unchanged in memory (the log may hold whole and torn records, which
  // the next Open() handles).
  absl::StatusOr<size_t> AppendBatch(std::vector<FinishedGame>* games,
                                     std::vector<SpooledGame>* added);

  // AppendBatch() of the one game `game` (copied; move it in to avoid
  // the copy). Returns false, writing nothing, when a game with the same
  // key is already pending.
  absl::StatusOr<bool> Append(FinishedGame game);

  // Makes every append so far durable (SpoolFile::Sync: fdatasync). Cheap
  // when nothing was appended since the last call.
  absl::Status Sync();

  // Forgets the pending games `keys` (acknowledged: stored, duplicate, or
  // rejected) and logs the fact with one write(); may compact the log.
  // Keys that are not pending are skipped. The games are forgotten even
  // when the write fails (the error is returned): the worst case is a
  // resend after a restart, answered as a duplicate.
  absl::Status AckBatch(absl::Span<const GameKey> keys);

  // AckBatch() of one key.
  absl::Status Ack(const GameKey& key) {
    return AckBatch(absl::Span<const GameKey>(&key, 1));
  }

  // The pending game `key` (shared, not copied); NotFound when it is not
  // pending.
  absl::StatusOr<SpooledGame> Get(const GameKey& key) const;

  // The pending games, oldest append first.
  std::vector<SpooledGame> Pending() const;

  // Keys of the pending games, oldest append first.
  std::vector<GameKey> PendingKeys() const;

  // Number of pending games.
  size_t pending() const;

  SpoolStats stats() const;

  // Directory of the spool.
  const std::string& dir() const { return options_.dir; }

 private:
  Spool(const SpoolOptions& options, SpoolFs* fs,
        std::unique_ptr<SpoolLock> lock);

  // Replays `data` (a whole log) into the pending set; counts torn and
  // skipped bytes into stats_. Returns true when records were damaged
  // (more than a torn tail).
  bool LoadLocked(const std::string& data) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Applies one record body; false when it does not parse.
  bool ApplyLocked(const char* body, uint32_t n)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Rewrites the log with only the pending games and reopens it for
  // appending.
  absl::Status CompactLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Forgets the pending game of `it` (an entry of by_key_).
  void ForgetLocked(absl::flat_hash_map<GameKey, uint64_t>::iterator it)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Writes out_ (whole framed records) at the end of the log and clears
  // it.
  absl::Status WriteOutLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const SpoolOptions options_;
  // options_.fs, or the real file system.
  SpoolFs* const fs_;
  // The lock on dir/LOCK, held for the spool's lifetime.
  const std::unique_ptr<SpoolLock> lock_;
  mutable absl::Mutex mu_;
  // spool.log open for appending, or null before Open() ends. Shared so
  // that Sync() can sync it outside mu_ while a compaction replaces it.
  std::shared_ptr<SpoolFile> file_ ABSL_GUARDED_BY(mu_);
  // Pending games by append number (so iteration is append order; a
  // B-tree: appends go at the end and acks mostly come off the front,
  // without a node allocation per game), and the append number of each
  // pending key.
  absl::btree_map<uint64_t, SpooledGame> entries_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<GameKey, uint64_t> by_key_ ABSL_GUARDED_BY(mu_);
  // Append number of the next new pending game.
  uint64_t next_number_ ABSL_GUARDED_BY(mu_) = 0;
  // Bytes of spool.log (header included) and of its live records.
  int64_t file_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t live_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  // True when appends were made since the last Sync().
  bool dirty_ ABSL_GUARDED_BY(mu_) = false;
  // Framed records being assembled for one write(); empty between calls
  // (kept to reuse its buffer).
  std::string out_ ABSL_GUARDED_BY(mu_);
  SpoolStats stats_ ABSL_GUARDED_BY(mu_);
};

}  // namespace qipu::worker

#endif  // QIPU_WORKER_SPOOL_H_

// The kinds of records the rest of qipu reads and writes through the
// Store, and WriteSet, several writes committed as one atomic batch.
//
// A caller names a kind of record and its key (built with keys.h's
// encoders); which column family holds the kind, and so which families one
// batch touches, is the store's business -- no caller sees a column family
// or a rocksdb::WriteBatch. The writes of one group of ingested games are
// composed in store/game_batch.h.
#ifndef QIPU_STORE_WRITE_SET_H_
#define QIPU_STORE_WRITE_SET_H_

#include <cstddef>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/write_batch.h"

namespace qipu::store {

class Store;

// Kinds of records (keys.h has each key layout; the column family a kind
// lives in is in the comment there).
enum class Records {
  // GameKey -> qipu.v1.Game.
  kGames,
  // PatternKey -> the game's pattern-index entry (pattern_index.h).
  kPatternEntries,
  // The player index (player_index.h): postings -> qipu.v1.GameEntry,
  // counters merged by addition, the alias groups.
  kPlayers,
  // AggregateKey -> AggregateStats, merged (aggregate.h).
  kAggregates,
  // PositionKey -> PositionValue, merged (position_value.h). Written by the
  // position index; a direct merge is for benchmarks' reference paths.
  kPositions,
  // JobKey -> JobRecord.
  kJobs,
  // JobCounterKey -> uint64, merged by addition.
  kJobCounters,
  // LeaseKey -> LeaseRecord.
  kLeases,
  // AbandonedKey -> the reason a game was given up.
  kAbandoned,
  // TokenKey -> qipu.v1.TokenRecord.
  kTokens,
  // TournamentKey -> qipu.v1.Tournament.
  kTournaments,
};

// Writes to commit together (Store::Commit). Not thread-safe; must not
// outlive the Store it was made for.
class WriteSet {
 public:
  // Writes to `store` (not owned).
  explicit WriteSet(const Store* store) : store_(store) {}

  // Sets the record of `kind` at `key`. Precondition: `key` is a key of
  // `kind` (keys.h).
  void Put(Records kind, absl::string_view key, absl::string_view value);
  // Merges `operand` into the record (kinds with a merge operator:
  // aggregates, positions, job counters).
  void Merge(Records kind, absl::string_view key, absl::string_view operand);
  // Deletes the record.
  void Delete(Records kind, absl::string_view key);

  // Writes added so far.
  size_t count() const { return static_cast<size_t>(batch_.Count()); }
  bool empty() const { return count() == 0; }
  // Forgets every write.
  void Clear() { batch_.Clear(); }

 private:
  friend class Store;
  friend class GameBatch;

  const Store* store_;
  rocksdb::WriteBatch batch_;
};

}  // namespace qipu::store

#endif  // QIPU_STORE_WRITE_SET_H_

// GameBatch: the write of one group of games, composed here so that which
// column families a game touches is the store's business: each game's
// record, pattern-index and player-index entries, the aggregates of the group
// summed per (configuration, day), and -- for games with position-index entries
// -- the unindexed-batch record that lets a crash be recovered
// (position_index.h), with the entries handed to the index once the batch
// is durable. The ingest committer (engine/ingest.h) fills and commits one
// per group commit.
//
// Not thread-safe; one committer uses one batch at a time; must not
// outlive the Store.
#ifndef QIPU_STORE_GAME_BATCH_H_
#define QIPU_STORE_GAME_BATCH_H_

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "store/aggregate.h"
#include "store/game_id.h"
#include "store/player_index.h"
#include "store/position_index.h"
#include "store/store.h"
#include "store/write_set.h"

namespace qipu::store {

// One game of a batch: what is stored of it. The views must stay valid
// until the batch is committed or dropped.
struct GameWrite {
  GameId id;
  // GameKey(id) and the serialized qipu.v1.Game.
  absl::string_view key;
  absl::string_view value;
  // Its pattern-index entry (pattern_index.h); empty: none.
  absl::string_view pattern_entry;
  // Its aggregate bucket and what the aggregates count of it.
  uint32_t config_id = 0;
  uint32_t day = 0;
  const GameFacts* facts = nullptr;
  // Its position-index entries (not owned; null or empty: none) and the
  // plies they cover.
  const PositionOps* position_ops = nullptr;
  uint32_t index_plies = 0;
  // Its player-index entries (player_index.h; not owned; null: none).
  const PlayerEntries* players = nullptr;
};

class GameBatch {
 public:
  // A batch for `store` (not owned).
  explicit GameBatch(Store* store) : store_(store), writes_(store) {}

  // Adds one game. Precondition: `game.facts` is not null.
  void Add(const GameWrite& game);

  // Games added.
  size_t size() const { return games_; }
  // Position-index entries added.
  uint64_t positions() const { return positions_; }

  // Commits the batch atomically (durable as the store's options say).
  // With position-index entries it first waits up to `room_wait` for room
  // in the index's buffer (Unavailable after that), records the batch as
  // unindexed in the same write, and hands the entries to the index once
  // the write is durable. Errors: the wait's or the write's; nothing of
  // the batch is written then. The batch is spent after the call.
  absl::Status Commit(absl::Duration room_wait);

 private:
  Store* store_;
  WriteSet writes_;
  absl::flat_hash_map<std::string, AggregateBuilder> aggregates_;
  // The player index's counters of the batch, summed (one merge a key).
  absl::flat_hash_map<std::string, uint64_t> player_counts_;
  PositionOps ops_;
  // AppendUnindexedGame() records of the games with index entries.
  std::string unindexed_;
  size_t games_ = 0;
  uint64_t positions_ = 0;
};

}  // namespace qipu::store

#endif  // QIPU_STORE_GAME_BATCH_H_

#include "store/game_batch.h"

#include "store/keys.h"

namespace qipu::store {

void GameBatch::Add(const GameWrite& g) {
  ++games_;
  writes_.Put(Records::kGames, g.key, g.value);
  if (!g.pattern_entry.empty()) {
    writes_.Put(Records::kPatternEntries, g.key, g.pattern_entry);
  }
  if (g.players != nullptr) {
    for (const auto& [k, v] : g.players->puts) {
      writes_.Put(Records::kPlayers, k, v);
    }
    for (const auto& [k, n] : g.players->counts) player_counts_[k] += n;
  }
  aggregates_[AggregateKey(g.config_id, g.day)].Add(*g.facts);
  if (g.position_ops == nullptr || g.position_ops->empty()) return;
  ops_.Append(*g.position_ops);
  AppendUnindexedGame({g.id, g.index_plies, g.config_id, g.day}, &unindexed_);
  positions_ += g.position_ops->size();
}

absl::Status GameBatch::Commit(absl::Duration room_wait) {
  for (const auto& [key, builder] : aggregates_) {
    writes_.Merge(Records::kAggregates, key,
                  builder.Build().SerializeAsString());
  }
  aggregates_.clear();
  for (const auto& [key, n] : player_counts_) {
    writes_.Merge(Records::kPlayers, key, EncodeUint64Value(n));
  }
  player_counts_.clear();
  PositionIndex& index = store_->position_index();
  uint64_t index_batch = 0;
  if (!ops_.empty()) {
    if (absl::Status s = index.WaitForRoom(room_wait); !s.ok()) return s;
    index_batch = index.NextBatch();
    // The unindexed record lives in the meta family, beside the index's
    // watermark: the store writes it itself.
    writes_.batch_.Put(store_->meta(), UnindexedKey(index_batch), unindexed_)
        .PermitUncheckedError();
  }
  if (!writes_.empty()) {
    if (absl::Status s = store_->Commit(&writes_); !s.ok()) return s;
  }
  if (!ops_.empty()) index.Add(index_batch, &ops_);
  return absl::OkStatus();
}

}  // namespace qipu::store

// GameOrder: the games of a training selection in their own order -- the
// day or time each game was played, then its id -- rather than in key
// order (self-play by job and index, imports by content hash, which is
// random with respect to time). An import is placed by its record's date
// (SGF DT, its first day at 00:00 UTC; a record without a date comes
// first), a self-play game by the time the coordinator stored it.
//
// GameSource hands games out in this order when given one, so that the
// rows of `qipu train export` and their files follow the games' order and
// KataGo's shuffle.py (which keeps the newest files by time) keeps the
// newest games; the rank of a game in it is what `--weight-by recency`
// weighs (RecencyWeight()).
//
// Immutable once built; safe to share between threads.
#ifndef QIPU_TRAIN_GAME_ORDER_H_
#define QIPU_TRAIN_GAME_ORDER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "qipu/v1/game.pb.h"
#include "store/game_id.h"

namespace qipu::train {

// When `game` was played, microseconds since the Unix epoch: a self-play
// game's stored time (Provenance.stored_unix_micros); an import's record
// date (Meta.date_ymd) at 00:00 UTC, or 0 when it has none.
int64_t GamePlayedMicros(const qipu::v1::Game& game);

// One selected game and when it was played (GamePlayedMicros()).
struct OrderedGame {
  int64_t played_micros = 0;
  store::GameId id;
};

class GameOrder {
 public:
  // Sorts `games` by time, then by games key (store::GameKey()). Ids must
  // be distinct.
  explicit GameOrder(std::vector<OrderedGame> games);

  size_t size() const { return games_.size(); }
  // The i-th game in order. Precondition: i < size().
  const OrderedGame& at(size_t i) const { return games_[i]; }
  // The position of `id` in the order, nullopt when it is not in it.
  std::optional<size_t> RankOf(const store::GameId& id) const;

 private:
  std::vector<OrderedGame> games_;
  // Games key -> index in games_.
  absl::flat_hash_map<std::string, size_t> rank_;
};

// The recency weight factor of the game at `rank` (0 = oldest) of `size`
// games: 2 (rank + 1) / (size + 1), a straight line from ~0 for the
// oldest to ~2 for the newest whose mean over the selection is 1 (so the
// selection's total weight is that of constant weights). Precondition:
// rank < size.
double RecencyWeight(size_t rank, size_t size);

}  // namespace qipu::train

#endif  // QIPU_TRAIN_GAME_ORDER_H_

// GameSource: the stored games a trainer asks for, one TrainingGame at a
// time, in key order (self-play games by job and index, then imports by
// content hash), read from the store's games column family with a filter,
// resumable after the last game handed out -- or, given a GameOrder, in
// that order (the games' own: by date, then id), each game read by its key.
// `qipu train export` and the gRPC TrainingService feed RowBuilder from
// one of these.
//
// Movable; one thread at a time; must not outlive the Store.
#ifndef QIPU_TRAIN_GAME_SOURCE_H_
#define QIPU_TRAIN_GAME_SOURCE_H_

#include <functional>
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "qipu/v1/game.pb.h"
#include "store/game_id.h"
#include "store/store.h"
#include "train/game_order.h"
#include "train/row_builder.h"

namespace qipu::train {

// A stored game decoded for the row builder: the record, the rules it was
// played under, its stored result and its id. InvalidArgument naming the
// game and the field that does not decode.
absl::StatusOr<TrainingGame> TrainingGameFromProto(const qipu::v1::Game& game,
                                                   const store::GameId& id);

// Which games a source hands out: true to take the game. Called with the
// decoded message before any replay (cheap filters on rules, source,
// policy, date, job...).
using GameFilter =
    std::function<bool(const store::GameId& id, const qipu::v1::Game& game)>;

class GameSource {
 public:
  // Games of `store` from the first one after `resume_after` (nullopt:
  // from the start) that `filter` takes (null: all), in key order; or,
  // with `order`, the games of `order` after `resume_after` in that order
  // (a resume point not in it starts from the beginning), each handed out
  // with its rank (TrainingGame::order_rank). `store` must outlive the
  // source.
  GameSource(const store::Store& store, GameFilter filter,
             std::optional<store::GameId> resume_after = std::nullopt,
             std::shared_ptr<const GameOrder> order = nullptr);

  // (OUT) *game: the next game taken. Returns false at the end. Errors: a
  // read error of the store (as store/status.h maps it). A key or stored
  // game that does not decode is skipped and counted (damaged()), as the
  // exporter skips it.
  absl::StatusOr<bool> Next(TrainingGame* game);

  // The id of the last game Next() handed out (or the resume point when
  // none yet): a trainer that restarts passes it back as `resume_after`.
  const std::optional<store::GameId>& last() const { return last_; }
  // Games read and games the filter dropped so far.
  int64_t read() const { return read_; }
  int64_t dropped() const { return dropped_; }
  // Games skipped because their key or record does not decode.
  int64_t damaged() const { return damaged_; }

 private:
  // Next() in key order / in order_.
  absl::StatusOr<bool> NextByKey(TrainingGame* game);
  absl::StatusOr<bool> NextInOrder(TrainingGame* game);
  // Filters and decodes the stored game `value` of `id` into *game; false
  // (counted) when the filter drops it or it does not decode.
  bool Take(const store::GameId& id, absl::string_view value,
            TrainingGame* game);

  const store::Store& store_;
  // Key order: the scan (made on the first Next()).
  std::optional<store::Cursor> cursor_;
  std::shared_ptr<const GameOrder> order_;
  // In order_: the index of the next game to read.
  size_t next_index_ = 0;
  GameFilter filter_;
  std::optional<store::GameId> last_;
  bool started_ = false;
  int64_t read_ = 0;
  int64_t dropped_ = 0;
  int64_t damaged_ = 0;
  qipu::v1::Game message_;
};

}  // namespace qipu::train

#endif  // QIPU_TRAIN_GAME_SOURCE_H_

// RowStream: the training rows of a selection of stored games, mixed and
// cut into batches, with a cursor after every batch -- what `qipu train
// export` writes into .npz files and the coordinator's TrainingService
// streams to a trainer. Both run this class, so for the same request and
// seed they give byte-identical batches.
//
// Mixing comes in chunks: games are taken in key order (GameSource) until
// their rows -- estimated from each record's length, so that the boundary
// is known before the games are replayed -- reach `shuffle_window`; the
// chunk's games are replayed (in parallel on a WorkPool when one is given),
// its rows go out in a random order drawn from the seed and the chunk's
// last game, and the next chunk starts. (A sliding window mixes across its
// whole history and cannot be resumed without replaying it; a chunk is
// rebuilt from its key range alone.) With shuffle_window <= 1 the rows go
// out in game order (chunks of about kOrderedChunkRows rows).
//
// The cursor after a batch says which games are done (every row sent), the
// last game of the chunk in flight and how many of its rows went out. A
// stream started from that cursor rebuilds the chunk from its key range,
// skips the rows already sent and continues: over the two streams every
// selected game's rows go out exactly once. This holds for games stored
// before the cursor was handed out; a game stored later with a key behind
// the cursor (imports are keyed by content hash; a late self-play game of
// an index below the cursor) is not sent by the resumed stream, and one
// stored into the key range of the chunk in flight changes that chunk.
//
// Not thread-safe; one stream per request. Must not outlive the Store.
#ifndef QIPU_TRAIN_ROW_STREAM_H_
#define QIPU_TRAIN_ROW_STREAM_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/work_pool.h"
#include "store/game_id.h"
#include "store/store.h"
#include "train/game_order.h"
#include "train/game_source.h"
#include "train/row_batch.h"
#include "train/row_builder.h"

namespace qipu::train {

// Largest batch and mixing window a stream accepts (rows).
inline constexpr int kMaxBatchRows = 8192;
inline constexpr int kMaxShuffleWindow = 262144;
// Estimated rows per chunk when rows go out in game order.
inline constexpr int kOrderedChunkRows = 2048;

// How a stream makes, mixes and cuts rows.
struct StreamOptions {
  RowOptions rows;
  // Rows per batch, 1..kMaxBatchRows.
  int batch_size = 256;
  // Rows per mixed chunk, 0..kMaxShuffleWindow (0, 1: game order).
  int shuffle_window = 0;
  // Rows to send in all (0 = to the end of the selection).
  uint64_t max_rows = 0;
  // The selection in the games' own order (train/game_order.h): games are
  // taken in it instead of key order, and cursors and chunks follow it.
  // Null: key order. Shared, immutable.
  std::shared_ptr<const GameOrder> order;
};

// OK, or InvalidArgument naming the option and its accepted range.
absl::Status ValidateStreamOptions(const StreamOptions& options);

// Where a stream stands; the decoded form of a cursor.
struct StreamPosition {
  // Games up to this one (key order) are done. nullopt: none yet (the
  // stream starts at the first selected game).
  std::optional<store::GameId> done_through;
  // The chunk in flight: its last game, and the rows of it already sent.
  // nullopt: no chunk in flight (rows_sent is then 0).
  std::optional<store::GameId> chunk_last;
  uint64_t chunk_rows_sent = 0;

  friend bool operator==(const StreamPosition&,
                         const StreamPosition&) = default;
};

// The cursor bytes of `position` for a stream whose request has
// fingerprint `stream_key` (a hash of everything that decides the rows and
// their order; batch size and limits excluded).
std::string EncodeStreamCursor(const StreamPosition& position,
                               uint64_t stream_key);

// The position in `cursor`. InvalidArgument when the bytes are not a
// cursor, or when it was made for a different request (another key).
absl::StatusOr<StreamPosition> DecodeStreamCursor(absl::string_view cursor,
                                                  uint64_t stream_key);

// The resume point of a window over the last `n` games of `store` that
// `filter` takes: the key just before the n-th last of them, nullopt when
// fewer than n (or n == 0: everything). Reads backwards from the last key.
absl::StatusOr<std::optional<store::GameId>> RecentWindowStart(
    const store::Store& store, const GameFilter& filter, uint64_t n);

// What a stream did so far.
struct StreamStats {
  // Rows sent; games whose rows are all sent (chunks finished).
  uint64_t rows = 0;
  uint64_t games_done = 0;
  // Games read and games the filter dropped (GameSource counters summed).
  int64_t games_read = 0;
  int64_t games_dropped = 0;
  // Games that gave no rows because they do not fit or replay (a board
  // larger than pos_len, a record that does not set up).
  int64_t games_unusable = 0;
  // Stored games whose key or record does not decode (skipped).
  int64_t games_damaged = 0;
};

class RowStream {
 public:
  // A stream over the games of `store` that `filter` takes, from
  // `position`, replaying each chunk's games on `pool` (and the calling
  // thread; null: the caller alone). The rows do not depend on the pool.
  // Preconditions: ValidateStreamOptions(options).ok(); `store` and `pool`
  // outlive the stream.
  RowStream(const store::Store& store, GameFilter filter,
            const StreamOptions& options, uint64_t stream_key,
            const StreamPosition& position, base::WorkPool* pool = nullptr);

  // Replaces *batch (pos_len = options.rows.pos_len) with the next batch:
  // batch_size rows, fewer at the end. Returns false (and an empty batch)
  // when the selection or max_rows is exhausted. Errors: a read error of
  // the store; the stream cannot continue after one.
  absl::StatusOr<bool> Next(RowBatch* batch);

  // The cursor after the last batch Next() returned.
  std::string cursor() const;
  const StreamPosition& position() const { return position_; }
  StreamStats stats() const;

 private:
  // Loads the next chunk into games_ / game_rows_ / order_: rebuilds the chunk
  // in flight of position_ when there is one, else takes games after
  // done_through until the window is full. Returns false when no game is left.
  absl::StatusOr<bool> LoadChunk();
  // Appends `game` to the chunk's games (games_[chunk_games_]).
  void TakeGame(TrainingGame* game);
  // Replays the chunk's games into their row batches, on the pool.
  void BuildChunk();
  // Rows `game` is expected to give (from its record's length).
  int EstimatedRows(const TrainingGame& game) const;
  // Lists the chunk's rows in order_ and draws their order.
  void ShuffleChunk();
  // True when game `a` comes after game `b` in the stream's order.
  bool After(const store::GameId& a, const store::GameId& b) const;
  // Folds source_'s counters into stats_ (before source_ is replaced).
  void TakeSourceCounts();

  const store::Store& store_;
  GameFilter filter_;
  StreamOptions options_;
  uint64_t stream_key_;
  StreamPosition position_;
  StreamStats stats_;
  base::WorkPool* pool_;
  // One builder per thread taking part in BuildChunk().
  std::vector<std::unique_ptr<RowBuilder>> builders_;
  std::optional<GameSource> source_;
  // The chunk being sent: its games (the first chunk_games_; the vectors
  // only grow, their buffers are reused), each game's rows, the rows in
  // sending order as (game, row), the next one to send.
  std::vector<TrainingGame> games_;
  std::vector<RowBatch> game_rows_;
  std::vector<std::pair<int, int>> order_;
  size_t next_ = 0;
  uint64_t chunk_games_ = 0;
  bool chunk_loaded_ = false;
  bool exhausted_ = false;
};

}  // namespace qipu::train

#endif  // QIPU_TRAIN_ROW_STREAM_H_

// Training requests: a qipu.v1.TrainingRequest checked and turned into what
// a train::RowStream runs on -- the game filter (the query filter, the
// cycle selection, void games, boards that fit), the stream options, the
// request's fingerprint for its cursors and where to start (a cursor, the
// recent-games window, or the first game). The gRPC TrainingService and
// `qipu train export --db` both plan with this, so their rows agree.
#ifndef QIPU_ENGINE_TRAINING_H_
#define QIPU_ENGINE_TRAINING_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "qipu/v1/train.pb.h"
#include "store/store.h"
#include "train/game_source.h"
#include "train/row_batch.h"
#include "train/row_stream.h"

namespace qipu::engine {

// Largest batch message, bytes (below the coordinator's 32 MiB message
// limit): batch_size times the row size must stay under it.
inline constexpr int64_t kMaxBatchBytes = int64_t{24} << 20;

// A request ready to run. Plain value; the filter is self-contained.
struct TrainingPlan {
  train::GameFilter filter;
  train::StreamOptions options;
  // Fingerprint of everything that decides the rows and their order.
  uint64_t stream_key = 0;
  train::StreamPosition start;
  // Games of the selection left out for a board larger than pos_len
  // (request.skip_oversize; otherwise planning refuses them).
  uint64_t games_oversize = 0;
};

// Checks `req` and plans it over `store` (read for the recent-games
// window). InvalidArgument naming the field: a bad filter, an unknown
// cycle selection, pos_len outside 2..25 or smaller than the board the
// filter fixes, symmetries not 1 or 8, batch_size outside 1..8192 or above
// kMaxBatchBytes,
// shuffle_window too large, a cursor that is damaged or belongs to another
// request; selected games larger than pos_len (named: pos_len, the largest
// board, how many) unless skip_oversize; weight_by recency without order
// date. Read errors of the store otherwise. Without a fixed board size, or
// with order date, the selection is read once here (to find oversize
// boards, to sort it by date); the stream then only takes games that fit.
absl::StatusOr<TrainingPlan> PlanTraining(const store::Store& store,
                                          const qipu::v1::TrainingRequest& req);

// The fingerprint of a request's row-deciding fields (filter, cycles,
// drop_void, pos_len, symmetries, seed, positions_per_game, min_move,
// shuffle_window, weight_by, row_weight, ladder_planes, order): FNV-1a over
// their canonical serialisation, mixed. Stable across processes (cursors
// outlive them).
uint64_t TrainingStreamKey(const qipu::v1::TrainingRequest& req);

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_TRAINING_H_

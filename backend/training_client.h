// Training batches for the qipu tool: the rows of a TrainingRequest from a
// running coordinator (--server, TrainingService over gRPC) or from a
// database opened in this process (--db, the same planner and
// train::RowStream the service runs) -- the same rows either way.
#ifndef QIPU_BACKEND_TRAINING_CLIENT_H_
#define QIPU_BACKEND_TRAINING_CLIENT_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "backend/target.h"
#include "qipu/v1/train.pb.h"
#include "train/row_batch.h"

namespace qipu::backend {

// Receives each batch: its rows, the cursor after it, and the games done
// so far. An error stops the stream and is returned.
using TrainingSink =
    std::function<absl::Status(const train::RowBatch& rows,
                               const std::string& cursor, uint64_t games_done)>;

// What a pull did.
struct TrainingPullStats {
  uint64_t batches = 0;
  uint64_t rows = 0;
  uint64_t games_done = 0;
  // Games left out for a board larger than pos_len (skip_oversize).
  uint64_t games_oversize = 0;
  // The cursor after the last batch (empty when none came).
  std::string cursor;
};

// Streams the batches of `req` into `sink`. `timeout` bounds the whole
// stream with --server. Errors: the request's (InvalidArgument naming the
// field), the server's or the store's, or the sink's.
absl::StatusOr<TrainingPullStats> PullTrainingBatches(
    const Target& target, const qipu::v1::TrainingRequest& req,
    const TrainingSink& sink, absl::Duration timeout);

}  // namespace qipu::backend

#endif  // QIPU_BACKEND_TRAINING_CLIENT_H_

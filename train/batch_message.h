// The training batch message (qipu.v1.TrainingBatch) and the rows it
// carries: each .npz member of a RowBatch (train/row_batch.h) travels as one
// bytes field, its array copied raw. TrainingService writes batches with
// BatchToMessage(); clients (`qipu train export --server`, benchmarks)
// read them with BatchFromMessage(). Stateless free functions; thread-safe.
#ifndef QIPU_TRAIN_BATCH_MESSAGE_H_
#define QIPU_TRAIN_BATCH_MESSAGE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "qipu/v1/train.pb.h"
#include "train/row_batch.h"

namespace qipu::train {

// The batch message of `rows` with `cursor` and the games done so far.
// The arrays are copied raw (little-endian hosts only).
void BatchToMessage(const RowBatch& rows, const std::string& cursor,
                    uint64_t games_done, qipu::v1::TrainingBatch* out);

// The rows of a batch message into *rows (replaced; its pos_len becomes the
// message's). InvalidArgument when pos_len or the row count is out of range
// or an array's size does not match rows and pos_len.
absl::Status BatchFromMessage(const qipu::v1::TrainingBatch& batch,
                              RowBatch* rows);

}  // namespace qipu::train

#endif  // QIPU_TRAIN_BATCH_MESSAGE_H_

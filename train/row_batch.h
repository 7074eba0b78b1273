// RowBatch: training rows in columns, one contiguous array per .npz member
// (row-major, rows first), so that a file writer or a gRPC batch hands each
// array over whole. Rows are appended zeroed and filled by RowBuilder.
//
// Not thread-safe; movable and copyable. Memory grows with the rows held;
// Clear() keeps it for reuse.
#ifndef QIPU_TRAIN_ROW_BATCH_H_
#define QIPU_TRAIN_ROW_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "train/row_layout.h"

namespace qipu::train {

class RowBatch {
 public:
  // An empty batch of rows padded to pos_len. Precondition: 2 <= pos_len
  // <= kMaxPosLen (callers validate user input).
  explicit RowBatch(int pos_len = kDefaultPosLen);

  const RowShape& shape() const { return shape_; }
  int pos_len() const { return shape_.pos_len; }
  int rows() const { return rows_; }

  // Drops every row, keeping the memory.
  void Clear();
  // Reserves room for `rows` rows.
  void Reserve(int rows);
  // Appends one row, every field zero; returns its index.
  int AddRow();
  // Appends a copy of row r of `other`. Preconditions: same pos_len,
  // &other != this, 0 <= r < other.rows().
  void AppendRowFrom(const RowBatch& other, int r);
  // Overwrites row `dst` with row r of `other`. Preconditions: same
  // pos_len, 0 <= dst < rows(), 0 <= r < other.rows().
  void CopyRowFrom(int dst, const RowBatch& other, int r);
  // Drops the rows from `rows` on. Precondition: 0 <= rows <= this->rows().
  void Truncate(int rows) { Resize(rows); }
  // Keeps the first `rows` rows, adding zeroed rows as needed (a reader
  // then fills the columns whole). Precondition: rows >= 0.
  void Resize(int rows);

  // Row r's slices. Precondition: 0 <= r < rows().
  // kNumBinaryChannels channels of packed_channel_bytes() each.
  uint8_t* packed_inputs(int r) {
    return &packed_inputs_[static_cast<std::size_t>(r) *
                           shape_.packed_row_bytes()];
  }
  float* global_inputs(int r) {
    return &global_inputs_[static_cast<std::size_t>(r) * kNumGlobalInputs];
  }
  float* qipu_inputs(int r) {
    return &qipu_inputs_[static_cast<std::size_t>(r) * kNumQipuGlobalInputs];
  }
  // kNumPolicyChannels channels of policy_size() entries each.
  int16_t* policy_targets(int r) {
    return &policy_targets_[static_cast<std::size_t>(r) * kNumPolicyChannels *
                            shape_.policy_size()];
  }
  float* global_targets(int r) {
    return &global_targets_[static_cast<std::size_t>(r) * kNumGlobalTargets];
  }
  int8_t* score_distribution(int r) {
    return &score_distribution_[static_cast<std::size_t>(r) *
                                shape_.score_bins()];
  }
  // kNumValueChannels planes of area() entries each.
  int8_t* value_targets(int r) {
    return &value_targets_[static_cast<std::size_t>(r) * kNumValueChannels *
                           shape_.area()];
  }
  // kNumQValueChannels channels of policy_size() entries each.
  int16_t* q_value_targets(int r) {
    return &q_value_targets_[static_cast<std::size_t>(r) *
                             shape_.q_value_size()];
  }
  uint64_t* row_ids(int r) {
    return &row_ids_[static_cast<std::size_t>(r) * kNumRowIdColumns];
  }

  // The whole columns (rows() rows each), in .npz member order.
  const std::vector<uint8_t>& packed_inputs() const { return packed_inputs_; }
  const std::vector<float>& global_inputs() const { return global_inputs_; }
  const std::vector<float>& qipu_inputs() const { return qipu_inputs_; }
  const std::vector<int16_t>& policy_targets() const { return policy_targets_; }
  const std::vector<float>& global_targets() const { return global_targets_; }
  const std::vector<int8_t>& score_distribution() const {
    return score_distribution_;
  }
  const std::vector<int8_t>& value_targets() const { return value_targets_; }
  const std::vector<int16_t>& q_value_targets() const {
    return q_value_targets_;
  }
  const std::vector<uint64_t>& row_ids() const { return row_ids_; }

  // True when plane c of row r has the bit of index i (y * pos_len + x)
  // set (tests and readers).
  bool InputBit(int r, int c, int i) const {
    const uint8_t* p = &packed_inputs_[static_cast<std::size_t>(r) *
                                           shape_.packed_row_bytes() +
                                       static_cast<std::size_t>(c) *
                                           shape_.packed_channel_bytes()];
    return (p[i >> 3] >> (7 - (i & 7))) & 1;
  }

 private:
  RowShape shape_;
  int rows_ = 0;
  std::vector<uint8_t> packed_inputs_;
  std::vector<float> global_inputs_;
  std::vector<float> qipu_inputs_;
  std::vector<int16_t> policy_targets_;
  std::vector<float> global_targets_;
  std::vector<int8_t> score_distribution_;
  std::vector<int8_t> value_targets_;
  std::vector<int16_t> q_value_targets_;
  std::vector<uint64_t> row_ids_;
};

}  // namespace qipu::train

#endif  // QIPU_TRAIN_ROW_BATCH_H_

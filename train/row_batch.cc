#include "train/row_batch.h"

#include <algorithm>
#include <cstddef>

namespace qipu::train {
namespace {

// Resizes `v` to rows * per_row entries (new entries zero).
template <typename T>
void ResizeRows(std::vector<T>& v, int rows, size_t per_row) {
  v.resize(static_cast<size_t>(rows) * per_row);
}

// Appends row r of `from` (per_row entries each) to `to`.
template <typename T>
void CopyRow(const std::vector<T>& from, int r, size_t per_row,
             std::vector<T>& to) {
  const auto begin = from.begin() + static_cast<std::ptrdiff_t>(r * per_row);
  to.insert(to.end(), begin, begin + static_cast<std::ptrdiff_t>(per_row));
}

// Overwrites row dst of `to` with row r of `from` (per_row entries each).
template <typename T>
void SetRow(std::vector<T>& to, int dst, const std::vector<T>& from, int r,
            size_t per_row) {
  std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(r * per_row), per_row,
              to.begin() + static_cast<std::ptrdiff_t>(dst * per_row));
}

}  // namespace

RowBatch::RowBatch(int pos_len) { shape_.pos_len = pos_len; }

void RowBatch::Clear() { Truncate(0); }

void RowBatch::Reserve(int rows) {
  const size_t n = static_cast<size_t>(rows);
  packed_inputs_.reserve(n * shape_.packed_row_bytes());
  global_inputs_.reserve(n * kNumGlobalInputs);
  qipu_inputs_.reserve(n * kNumQipuGlobalInputs);
  policy_targets_.reserve(n * kNumPolicyChannels * shape_.policy_size());
  global_targets_.reserve(n * kNumGlobalTargets);
  score_distribution_.reserve(n * shape_.score_bins());
  value_targets_.reserve(n * kNumValueChannels * shape_.area());
  q_value_targets_.reserve(n * shape_.q_value_size());
  row_ids_.reserve(n * kNumRowIdColumns);
}

void RowBatch::Resize(int rows) {
  rows_ = rows;
  ResizeRows(packed_inputs_, rows, shape_.packed_row_bytes());
  ResizeRows(global_inputs_, rows, kNumGlobalInputs);
  ResizeRows(qipu_inputs_, rows, kNumQipuGlobalInputs);
  ResizeRows(policy_targets_, rows, kNumPolicyChannels * shape_.policy_size());
  ResizeRows(global_targets_, rows, kNumGlobalTargets);
  ResizeRows(score_distribution_, rows, shape_.score_bins());
  ResizeRows(value_targets_, rows, kNumValueChannels * shape_.area());
  ResizeRows(q_value_targets_, rows, shape_.q_value_size());
  ResizeRows(row_ids_, rows, kNumRowIdColumns);
}

int RowBatch::AddRow() {
  const int r = rows_;
  Truncate(rows_ + 1);
  return r;
}

void RowBatch::AppendRowFrom(const RowBatch& other, int r) {
  CopyRow(other.packed_inputs_, r, shape_.packed_row_bytes(), packed_inputs_);
  CopyRow(other.global_inputs_, r, kNumGlobalInputs, global_inputs_);
  CopyRow(other.qipu_inputs_, r, kNumQipuGlobalInputs, qipu_inputs_);
  CopyRow(other.policy_targets_, r, kNumPolicyChannels * shape_.policy_size(),
          policy_targets_);
  CopyRow(other.global_targets_, r, kNumGlobalTargets, global_targets_);
  CopyRow(other.score_distribution_, r, shape_.score_bins(),
          score_distribution_);
  CopyRow(other.value_targets_, r, kNumValueChannels * shape_.area(),
          value_targets_);
  CopyRow(other.q_value_targets_, r, shape_.q_value_size(), q_value_targets_);
  CopyRow(other.row_ids_, r, kNumRowIdColumns, row_ids_);
  ++rows_;
}

void RowBatch::CopyRowFrom(int dst, const RowBatch& other, int r) {
  SetRow(packed_inputs_, dst, other.packed_inputs_, r,
         shape_.packed_row_bytes());
  SetRow(global_inputs_, dst, other.global_inputs_, r, kNumGlobalInputs);
  SetRow(qipu_inputs_, dst, other.qipu_inputs_, r, kNumQipuGlobalInputs);
  SetRow(policy_targets_, dst, other.policy_targets_, r,
         kNumPolicyChannels * shape_.policy_size());
  SetRow(global_targets_, dst, other.global_targets_, r, kNumGlobalTargets);
  SetRow(score_distribution_, dst, other.score_distribution_, r,
         shape_.score_bins());
  SetRow(value_targets_, dst, other.value_targets_, r,
         kNumValueChannels * shape_.area());
  SetRow(q_value_targets_, dst, other.q_value_targets_, r,
         shape_.q_value_size());
  SetRow(row_ids_, dst, other.row_ids_, r, kNumRowIdColumns);
}

}  // namespace qipu::train

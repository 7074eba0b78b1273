// ShuffleWindow: every row out exactly once, mixed, the same order for the
// same seed, in order with capacity 1.
#include "train/shuffle_window.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace qipu::train {
namespace {

// The turns (row id column 3) of the rows that come out of a window of
// `capacity` fed `n` rows numbered 0..n-1 in chunks of 7.
std::vector<uint64_t> Shuffled(int n, int capacity, uint64_t seed) {
  ShuffleWindow window(5, capacity, seed);
  RowBatch out(5);
  RowBatch chunk(5);
  for (int i = 0; i < n; ++i) {
    const int r = chunk.AddRow();
    chunk.row_ids(r)[rid::kTurn] = static_cast<uint64_t>(i);
    chunk.global_targets(r)[gtg::kTurn] = static_cast<float>(i);
    if (chunk.rows() == 7 || i == n - 1) {
      window.Add(chunk, &out);
      chunk.Clear();
    }
  }
  EXPECT_LE(window.size(), capacity);
  window.Drain(&out);
  EXPECT_EQ(window.size(), 0);
  std::vector<uint64_t> turns;
  for (int r = 0; r < out.rows(); ++r) {
    turns.push_back(out.row_ids(r)[rid::kTurn]);
    // The row moved whole.
    EXPECT_EQ(out.global_targets(r)[gtg::kTurn],
              static_cast<float>(turns.back()));
  }
  return turns;
}

TEST(ShuffleWindow, EveryRowOnceMixedAndSeeded) {
  const std::vector<uint64_t> a = Shuffled(50, 8, 1);
  std::vector<uint64_t> all(50);
  std::iota(all.begin(), all.end(), 0);
  std::vector<uint64_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, all);
  EXPECT_NE(a, all);
  EXPECT_EQ(Shuffled(50, 8, 1), a);
  EXPECT_NE(Shuffled(50, 8, 2), a);
  // A window larger than the input shuffles it all at the drain.
  std::vector<uint64_t> big = Shuffled(20, 64, 3);
  std::sort(big.begin(), big.end());
  EXPECT_EQ(big, std::vector<uint64_t>(all.begin(), all.begin() + 20));
}

TEST(ShuffleWindow, CapacityOneKeepsTheOrder) {
  std::vector<uint64_t> all(30);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(Shuffled(30, 1, 9), all);
}

}  // namespace
}  // namespace qipu::train

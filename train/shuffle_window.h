// ShuffleWindow: mixes rows before they are handed out, as KataGo's
// shuffler and Minigo's Bigtable window do for a running trainer: rows go
// into a window of fixed capacity; once it is full, each new row replaces
// a row drawn at random from the window, which goes out. Drain() empties
// the window in random order. Every row comes out exactly once;
// deterministic for a seed and the same rows in the same order.
//
// Not thread-safe; movable.
#ifndef QIPU_TRAIN_SHUFFLE_WINDOW_H_
#define QIPU_TRAIN_SHUFFLE_WINDOW_H_

#include <cstdint>

#include "rules/playout.h"
#include "train/row_batch.h"

namespace qipu::train {

class ShuffleWindow {
 public:
  // A window of `capacity` rows (1: rows pass in order) of rows padded to
  // pos_len. Precondition: capacity >= 1 (callers validate requests).
  ShuffleWindow(int pos_len, int capacity, uint64_t seed);

  // Takes every row of `in`; the rows it pushes out are appended to *out.
  // Precondition: in and *out have the window's pos_len; out != &in.
  void Add(const RowBatch& in, RowBatch* out);
  // Appends every row still in the window to *out, in random order.
  void Drain(RowBatch* out);

  // Rows in the window now.
  int size() const { return window_.rows(); }
  int capacity() const { return capacity_; }

 private:
  int capacity_;
  rules::Rng rng_;
  RowBatch window_;
};

}  // namespace qipu::train

#endif  // QIPU_TRAIN_SHUFFLE_WINDOW_H_

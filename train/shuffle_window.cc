#include "train/shuffle_window.h"

namespace qipu::train {

ShuffleWindow::ShuffleWindow(int pos_len, int capacity, uint64_t seed)
    : capacity_(capacity), rng_(seed), window_(pos_len) {
  window_.Reserve(capacity);
}

void ShuffleWindow::Add(const RowBatch& in, RowBatch* out) {
  for (int r = 0; r < in.rows(); ++r) {
    if (window_.rows() < capacity_) {
      window_.AppendRowFrom(in, r);
      continue;
    }
    const int j =
        static_cast<int>(rng_.Below(static_cast<uint32_t>(capacity_)));
    out->AppendRowFrom(window_, j);
    window_.CopyRowFrom(j, in, r);
  }
}

void ShuffleWindow::Drain(RowBatch* out) {
  while (window_.rows() > 0) {
    const int n = window_.rows();
    const int j = static_cast<int>(rng_.Below(static_cast<uint32_t>(n)));
    out->AppendRowFrom(window_, j);
    if (j != n - 1) window_.CopyRowFrom(j, window_, n - 1);
    window_.Truncate(n - 1);
  }
}

}  // namespace qipu::train

#include "rules/symmetry.h"

#include <utility>

#include "rules/coord.h"

namespace qipu::rules {

Point TransformPoint(int t, Point p, int width, int height) {
  if (p == kPass || p == kResign || p == kNoPoint) return p;
  int x = PointX(p);
  int y = PointY(p);
  if (t & 4) std::swap(x, y);  // square boards only
  if (t & 1) x = width - 1 - x;
  if (t & 2) y = height - 1 - y;
  return MakePoint(x, y);
}

SymmetricHasher::SymmetricHasher(const Board& board)
    : SymmetricHasher(board.width(), board.height()) {
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      const Color c = board.at(p);
      if (c == Color::kBlack || c == Color::kWhite) Toggle(c, p);
    }
  }
}

void SymmetricHasher::Toggle(Color c, Point p) {
  const int n = NumSymmetries(width_, height_);
  for (int t = 0; t < n; ++t) {
    images_[t] ^= StoneKey(c, TransformPoint(t, p, width_, height_));
  }
}

CanonicalKey SymmetricHasher::Canonical(Color to_play) const {
  const int n = NumSymmetries(width_, height_);
  CanonicalKey k;
  k.key = images_[0];
  k.transform = 0;
  k.minimizers = 1;
  for (int t = 1; t < n; ++t) {
    if (images_[t] < k.key) {
      k.key = images_[t];
      k.transform = static_cast<uint8_t>(t);
      k.minimizers = static_cast<uint8_t>(1 << t);
    } else if (images_[t] == k.key) {
      k.minimizers = static_cast<uint8_t>(k.minimizers | (1 << t));
    }
  }
  if (to_play == Color::kWhite) k.key ^= WhiteToPlayKey();
  return k;
}

Point SymmetricHasher::CanonicalMove(const CanonicalKey& key, Point p) const {
  if (p == kPass || p == kResign) return p;
  Point best = kNoPoint;
  int best_index = 1 << 30;
  for (int t = 0; t < 8; ++t) {
    if (!((key.minimizers >> t) & 1)) continue;
    const Point q = TransformPoint(t, p, width_, height_);
    const int i = DenseIndex(q, width_);
    if (i < best_index) {
      best_index = i;
      best = q;
    }
  }
  return best;
}

}  // namespace qipu::rules

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
  // The images of p from its coordinates, taken once (TransformPoint() per
  // transform costs two divisions and branches each time): transform t
  // transposes first when bit 2 is set, then mirrors x (bit 0) and y
  // (bit 1).
  const int x = PointX(p);
  const int y = PointY(p);
  const int mx = width_ - 1 - x;
  const int my = height_ - 1 - y;
  images_[0] ^= StoneKey(c, MakePoint(x, y));
  images_[1] ^= StoneKey(c, MakePoint(mx, y));
  images_[2] ^= StoneKey(c, MakePoint(x, my));
  images_[3] ^= StoneKey(c, MakePoint(mx, my));
  if (width_ != height_) return;
  // Square: after the transposition (y, x), mirroring x gives
  // width - 1 - y = my and mirroring y gives height - 1 - x = mx.
  images_[4] ^= StoneKey(c, MakePoint(y, x));
  images_[5] ^= StoneKey(c, MakePoint(my, x));
  images_[6] ^= StoneKey(c, MakePoint(y, mx));
  images_[7] ^= StoneKey(c, MakePoint(my, mx));
}

CanonicalKey SymmetricHasher::Canonical(Color to_play) const {
  // The images as 128-bit integers (hi, lo): the order of Hash128's
  // operator<=>. Without branches: which image is smallest is a coin toss,
  // and mispredicted branches were most of this function's time.
  using U128 = unsigned __int128;
  const int n = NumSymmetries(width_, height_);
  U128 v[8];
  for (int t = 0; t < 8; ++t) {
    v[t] = (static_cast<U128>(images_[t].hi) << 64) | images_[t].lo;
  }
  U128 best = v[0];
  int best_t = 0;
  for (int t = 1; t < n; ++t) {
    const bool less = v[t] < best;
    best = less ? v[t] : best;
    best_t = less ? t : best_t;
  }
  unsigned minimizers = 0;
  for (int t = 0; t < n; ++t)
    minimizers |= static_cast<unsigned>(v[t] == best) << t;
  CanonicalKey k;
  k.key = images_[best_t];
  k.transform = static_cast<uint8_t>(best_t);
  k.minimizers = static_cast<uint8_t>(minimizers);
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

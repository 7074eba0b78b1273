// The symmetries of the board: 8 transforms of a square board (4 of a
// rectangular one), canonical position keys (the minimum Zobrist hash over
// the transforms, side to move folded in) and the transform that maps back,
// so that continuations found in the canonical frame can be shown in the
// caller's orientation.
//
// Transform t in [0, 8): bit 2 transposes (x, y) -> (y, x) first (square
// boards only), then bit 0 mirrors x and bit 1 mirrors y.
#ifndef QIPU_RULES_SYMMETRY_H_
#define QIPU_RULES_SYMMETRY_H_

#include <array>
#include <cstdint>

#include "rules/board.h"
#include "rules/types.h"
#include "rules/zobrist.h"

namespace qipu::rules {

// Number of transforms valid on a width x height board: 8 when square,
// else 4 (transforms 0..3).
inline int NumSymmetries(int width, int height) {
  return width == height ? 8 : 4;
}

// Applies transform t to p (kPass and kResign map to themselves).
// Precondition: t < NumSymmetries(width, height), p on that board.
Point TransformPoint(int t, Point p, int width, int height);

// The transform that undoes t.
inline int InverseTransform(int t) {
  return (t & 4) ? (4 | ((t & 1) << 1) | ((t & 2) >> 1)) : t;
}

// A canonical position key and how to get there.
struct CanonicalKey {
  // min over valid t of hash(T_t(board)), XOR WhiteToPlayKey() when White
  // is to move. Equal for all 8 (or 4) images of a position.
  Hash128 key;
  // The smallest transform reaching the minimum: T_transform maps the
  // caller's board into the canonical frame.
  uint8_t transform = 0;
  // Bit t set when transform t reaches the minimum too (the position's own
  // symmetries, composed with `transform`).
  uint8_t minimizers = 1;
};

// Keeps the Zobrist hash of all 8 transformed images of a board up to
// date, one stone change at a time (8 XORs a stone). Trivially copyable.
class SymmetricHasher {
 public:
  // Empty width x height board.
  SymmetricHasher(int width, int height) : width_(width), height_(height) {}
  // The images of `board`.
  explicit SymmetricHasher(const Board& board);

  // Adds or removes (XOR) a stone of colour c at board point p.
  void Toggle(Color c, Point p);

  // Hash of image t. Precondition: t < NumSymmetries().
  const Hash128& image(int t) const { return images_[t]; }

  // The canonical key of the board with `to_play` to move.
  CanonicalKey Canonical(Color to_play) const;

  // The representative of move p in the canonical frame of `key`: the
  // smallest dense index among T_t(p) over the minimizing transforms, so
  // that symmetric moves of a symmetric position get one name.
  Point CanonicalMove(const CanonicalKey& key, Point p) const;

 private:
  int width_;
  int height_;
  std::array<Hash128, 8> images_{};
};

}  // namespace qipu::rules

#endif  // QIPU_RULES_SYMMETRY_H_

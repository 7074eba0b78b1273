// Basic value types of the rules core: colours, points on the padded board,
// moves. Every board size from 2x2 to 25x25 shares one fixed layout, so a
// point's index (and its Zobrist key) does not depend on the board size.
#ifndef QIPU_RULES_TYPES_H_
#define QIPU_RULES_TYPES_H_

#include <cstdint>

namespace qipu::rules {

// Largest supported board side.
inline constexpr int kMaxSize = 25;
// Smallest supported board side.
inline constexpr int kMinSize = 2;
// Row stride of the padded board: one wall column shared by adjacent rows.
inline constexpr int kStride = kMaxSize + 1;
// Number of cells of the padded board: kMaxSize rows plus a wall row above
// and below. Cells outside the board in use are walls.
inline constexpr int kNumCells = kStride * (kMaxSize + 2);
// Most points any board has.
inline constexpr int kMaxPoints = kMaxSize * kMaxSize;

// Contents of a cell. Stone colours are 1 and 2 so that Opponent() is 3 - c.
enum class Color : uint8_t { kEmpty = 0, kBlack = 1, kWhite = 2, kWall = 3 };

// The other player. Precondition: c is kBlack or kWhite.
constexpr Color Opponent(Color c) {
  return static_cast<Color>(3 - static_cast<uint8_t>(c));
}

// 0 for Black, 1 for White: an index into per-player arrays.
// Precondition: c is kBlack or kWhite.
constexpr int PlayerIndex(Color c) { return static_cast<int>(c) - 1; }

// "B", "W", "empty" or "wall".
const char* ColorName(Color c);

// Index of a cell of the padded board, or one of the sentinels below.
using Point = int16_t;

// Sentinel for "no point" (no ko point, no move yet).
inline constexpr Point kNoPoint = -1;
// A pass. Cell 0 is a wall, so no board point collides with it.
inline constexpr Point kPass = 0;
// Resignation (a wall cell too). Never stored on a board.
inline constexpr Point kResign = 1;

// The cell of column x (0 = left) and row y (0 = top, as in SGF).
// Precondition: 0 <= x, y < kMaxSize.
constexpr Point MakePoint(int x, int y) {
  return static_cast<Point>((y + 1) * kStride + x + 1);
}
// Column of a board point (0 = left). Precondition: p is a board point.
constexpr int PointX(Point p) { return p % kStride - 1; }
// Row of a board point (0 = top). Precondition: p is a board point.
constexpr int PointY(Point p) { return p / kStride - 1; }

// A move: a colour and a point, kPass or kResign.
struct Move {
  Color color = Color::kBlack;
  Point point = kPass;

  friend bool operator==(const Move&, const Move&) = default;
};

}  // namespace qipu::rules

#endif  // QIPU_RULES_TYPES_H_

// Board: the stones on a rectangular Go board, with chains, liberties,
// captures, simple ko and an incremental Zobrist hash.
//
// Layout: a padded 1-D array of kNumCells cells with a fixed stride (see
// types.h), walls around the board in use. Chains are circular lists through
// `next`, identified by a head cell that holds the chain's pseudo-liberty
// count (number of (stone, empty neighbour) adjacencies) and stone count.
// A chain is captured exactly when its pseudo-liberty count reaches zero.
//
// Board knows nothing of whose turn it is, of history or of superko; those
// live in Game. It is trivially copyable and never allocates; Play(),
// Check() and the eye tests are the playout hot path.
#ifndef QIPU_RULES_BOARD_H_
#define QIPU_RULES_BOARD_H_

#include <array>
#include <cstdint>
#include <string>

#include "rules/types.h"
#include "rules/zobrist.h"

namespace qipu::rules {

// Why a move is or is not allowed by the board alone.
enum class MoveCheck : uint8_t {
  kLegal = 0,
  // The point holds a stone (or is off the board).
  kOccupied,
  // The move would leave its own chain without liberties, capturing nothing.
  kSuicide,
  // Immediate retake of a basic ko.
  kKo,
};

// "legal", "occupied", "suicide" or "ko".
const char* MoveCheckName(MoveCheck c);

// What the last move did (Board::last_play()).
struct PlayInfo {
  // Opponent stones removed.
  int16_t captured = 0;
  // Own stones removed by a (legal, multi-stone) suicide.
  int16_t suicided = 0;
  // True when the move captured a single stone in a basic-ko shape (the
  // capturing stone stands alone with the captured point as its only
  // liberty). Such a move sets the ko point.
  bool ko_capture = false;
};

// What a move would do, computed without playing it (Board::Preview()).
struct MovePreview {
  // Board hash after the move.
  Hash128 hash;
  // Opponent stones it would capture.
  int16_t captured = 0;
  // Own stones a legal multi-stone suicide would remove.
  int16_t suicided = 0;
  // True when it would be a basic-ko capture (see PlayInfo::ko_capture).
  bool ko_capture = false;
};

// Receives the points of stones removed by Play(), in removal order.
// Fixed capacity: never allocates.
struct RemovedStones {
  std::array<Point, kMaxPoints> points;
  int count = 0;
};

class Board {
 public:
  // An empty 19x19 board.
  Board();
  // An empty width x height board. Precondition: both in [kMinSize,
  // kMaxSize] (callers validate user input; see rules/coord.h).
  Board(int width, int height);

  // Copies `other` touching only the cells its board size uses: faster than
  // assignment for boards smaller than 25x25. Equivalent to *this = other.
  void CopyFrom(const Board& other);

  int width() const { return width_; }
  int height() const { return height_; }
  int num_points() const { return width_ * height_; }

  // Contents of cell p (kWall outside the board). Precondition:
  // 0 <= p < kNumCells.
  Color at(Point p) const { return cells_[p].color; }
  // True when p is a point of this board.
  bool OnBoard(Point p) const {
    return p >= 0 && p < kNumCells && cells_[p].color != Color::kWall;
  }

  // The point the next player may not play because it would retake a basic
  // ko immediately, or kNoPoint.
  Point ko_point() const { return ko_point_; }
  // Zobrist hash of the stones (not of the side to move or the ko point).
  const Hash128& hash() const { return hash_; }
  // Number of stones of colour c. Precondition: c is a stone colour.
  int stones(Color c) const { return stones_[PlayerIndex(c)]; }
  // Number of empty points, and the i-th of them (in no particular order).
  int num_empty() const { return num_empty_; }
  Point empty_point(int i) const { return empty_[i]; }

  // Checks a move by colour c at board point p under simple ko, with or
  // without legal multi-stone suicide. Single-stone suicide is never legal.
  // Precondition: p is a board point (not kPass/kResign).
  MoveCheck Check(Point p, Color c, bool multi_stone_suicide = false) const {
    const Cell& cell = cells_[p];
    if (cell.color != Color::kEmpty) return MoveCheck::kOccupied;
    if (p == ko_point_) return MoveCheck::kKo;
    if (cell.nbr & kEmptyMask) return MoveCheck::kLegal;
    return CheckCrowded(p, c, multi_stone_suicide);
  }
  bool IsLegal(Point p, Color c, bool multi_stone_suicide = false) const {
    return Check(p, c, multi_stone_suicide) == MoveCheck::kLegal;
  }

  // Plays colour c at p: places the stone, removes opponent chains left
  // without liberties, then its own chain if it has none (multi-stone
  // suicide), and updates the ko point. Precondition: Check(p, c, allowed)
  // returned kLegal. `removed`, when given, receives every removed stone.
  // What the move did is in last_play() afterwards (kept out of the return
  // value: a small struct returned through the stack stalls the hot path).
  void Play(Point p, Color c, RemovedStones* removed = nullptr);

  // What the last Play() did; all zero after Pass() or setup.
  const PlayInfo& last_play() const { return last_play_; }

  // A pass: only clears the ko point.
  void Pass() {
    ko_point_ = kNoPoint;
    last_play_ = PlayInfo{};
  }

  // True when c at p would capture at least one opponent chain.
  // Precondition: p is an empty board point.
  bool Captures(Point p, Color c) const;

  // What playing c at p would do: hash afterwards, captures, suicide.
  // Precondition: the move is legal (Check() == kLegal with the suicide
  // setting in force). Allocation-free; walks only captured chains.
  MovePreview Preview(Point p, Color c) const;

  // True when every neighbour of empty point p is colour c or a wall.
  bool IsEyeLike(Point p, Color c) const {
    const uint16_t n = cells_[p].nbr;
    return (n & (kEmptyMask | NbrMask(Opponent(c)))) == 0;
  }
  // The light policy's "own eye": eye-like, and of the diagonal points at
  // most one is an opponent stone (none on the edge or in the corner).
  bool IsOwnEye(Point p, Color c) const {
    return IsEyeLike(p, c) && DiagonalsAllowEye(p, c);
  }

  // Exact number of distinct liberties of the chain through stone p
  // (slow path: walks the chain). Precondition: p holds a stone.
  int Liberties(Point p) const;
  // Number of stones in the chain through stone p.
  int ChainSize(Point p) const { return cells_[cells_[p].chain].size; }
  // True when stones p and q belong to the same chain.
  bool SameChain(Point p, Point q) const {
    return cells_[p].chain == cells_[q].chain;
  }

  // Setup (SGF AB/AW/AE, handicap): sets board point p to c (kEmpty clears)
  // without captures, then rebuilds chains. Clears the ko point. May leave
  // chains without liberties; callers check HasDeadChains(). Slow path.
  void SetStone(Point p, Color c);
  // True when some chain has no liberty (only possible after SetStone()).
  bool HasDeadChains() const;

  // Checks every internal invariant against a recomputation (tests).
  bool Consistent() const;

  // ASCII diagram: rows top to bottom, 'X' black, 'O' white, '.' empty,
  // columns separated by spaces, no coordinates.
  std::string ToString() const;

 private:
  // Neighbour-count packing in Cell::nbr: 4 bits each.
  static constexpr int kBlackShift = 0;
  static constexpr int kWhiteShift = 4;
  static constexpr int kEmptyShift = 8;
  static constexpr uint16_t kEmptyMask = 0xF << kEmptyShift;
  static constexpr uint16_t NbrMask(Color c) {
    return c == Color::kBlack ? 0xF << kBlackShift : 0xF << kWhiteShift;
  }
  static constexpr uint16_t NbrUnit(Color c) {
    return c == Color::kBlack   ? 1 << kBlackShift
           : c == Color::kWhite ? 1 << kWhiteShift
           : c == Color::kEmpty ? 1 << kEmptyShift
                                : 0;
  }

  // One cell of the padded board. 16 bytes, so a row prefix copies fast.
  struct Cell {
    Color color = Color::kWall;
    uint8_t unused = 0;
    // Counts of black, white and empty orthogonal neighbours (see shifts);
    // walls are 4 minus the sum.
    uint16_t nbr = 0;
    // Head cell of the chain; valid on stones only.
    Point chain = kNoPoint;
    // Next stone of the chain (circular); valid on stones only.
    Point next = kNoPoint;
    // Pseudo-liberties of the chain; valid on chain heads only.
    int16_t libs = 0;
    // Stones in the chain; valid on chain heads only.
    int16_t size = 0;
    // Position in empty_; valid on empty points only.
    int16_t empty_index = -1;
    int16_t unused2 = 0;
  };
  static_assert(sizeof(Cell) == 16);

  static constexpr int kDirs[4] = {-kStride, -1, 1, kStride};

  // Check() for a point without empty neighbours.
  MoveCheck CheckCrowded(Point p, Color c, bool multi_stone_suicide) const;
  // The diagonal half of IsOwnEye().
  bool DiagonalsAllowEye(Point p, Color c) const;
  void AddEmpty(Point p);
  void RemoveEmpty(Point p);
  // Removes the chain with head `head`; returns its size.
  int RemoveChain(Point head, RemovedStones* removed);
  // Merges chain b into chain a (both heads), relabelling b's stones.
  void MergeChains(Point a, Point b);
  // Recomputes chains, liberties and neighbour counts from colours.
  void Rebuild();
  // Number of cells CopyFrom() must copy for this board size.
  int UsedCells() const { return (height_ + 2) * kStride; }

  int16_t width_ = 0;
  int16_t height_ = 0;
  // See ko_point().
  Point ko_point_ = kNoPoint;
  // Stones per player (index PlayerIndex()).
  std::array<int16_t, 2> stones_{};
  // Number of valid entries in empty_.
  int16_t num_empty_ = 0;
  Hash128 hash_{};
  PlayInfo last_play_{};
  std::array<Point, kMaxPoints> empty_{};
  std::array<Cell, kNumCells> cells_{};
};

}  // namespace qipu::rules

#endif  // QIPU_RULES_BOARD_H_

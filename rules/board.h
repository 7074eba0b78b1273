// Board: the stones on a rectangular Go board, with chains, liberties,
// captures, simple ko and an incremental Zobrist hash.
//
// Layout: a padded 1-D array of kNumCells cells with a fixed stride (see
// types.h), walls around the board in use, held as one array per field.
// Chains are circular lists through `next_`, identified by a head cell that
// holds the chain's pseudo-liberty count (number of (stone, empty
// neighbour) adjacencies) and stone count. A chain is captured exactly when
// its pseudo-liberty count reaches zero.
//
// Board knows nothing of whose turn it is, of history or of superko; those
// live in Game. It is trivially copyable and never allocates; Play(),
// Check() and the eye tests are the playout hot path.
#ifndef QIPU_RULES_BOARD_H_
#define QIPU_RULES_BOARD_H_

#include <array>
#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "rules/types.h"
#include "rules/zobrist.h"

namespace qipu::rules {

class Rng;  // rules/playout.h

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
  Color at(Point p) const { return color_[p]; }
  // True when p is a point of this board.
  bool OnBoard(Point p) const {
    return p >= 0 && p < kNumCells && color_[p] != Color::kWall;
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
    if (color_[p] != Color::kEmpty) return MoveCheck::kOccupied;
    if (p == ko_point_) return MoveCheck::kKo;
    if (nbr_[p] & kEmptyMask) return MoveCheck::kLegal;
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

  // The light policy's scan (see rules/playout.h): the index in the empty
  // list of the first of `count` entries, from index `start` onwards
  // cyclically, whose point is not c's own eye (IsOwnEye) and is legal for
  // c (IsLegal(p, c, multi_stone_suicide)); -1 when there is none.
  // Preconditions: 0 <= start < num_empty(), 0 <= count <= num_empty().
  int ScanLight(Color c, int start, int count,
                bool multi_stone_suicide = false) const;
  // The light policy's move: ScanLight(c, start, num_empty()), then plays
  // the point found, or passes when there is none. Returns the point played
  // or kPass. One pass over the data instead of Check() + Play(): the
  // playout hot path. Precondition: 0 <= start < num_empty(), or start == 0
  // on a full board.
  Point PlayLight(Color c, int start);

  // What ScanLightPlay() found (small enough to come back in a register).
  struct LightScan {
    // The index ScanLight() returns, or -1.
    int index = -1;
    // The point played, or kNoPoint when nothing was.
    Point played = kNoPoint;
  };
  // The light policy's move for Game (Game::PlayLightFrom()): finds the
  // index ScanLight(c, start, count, multi_stone_suicide) returns and plays
  // that point (as Play()) unless a repetition rule may forbid it. With
  // `filter` null nothing is checked. Otherwise `filter` is a Bloom-style
  // bit set of the board hashes the move must not recreate (hash h is
  // present when bit h.lo & 63 of word (h.lo >> 6) & filter_mask is set),
  // and the point is played when the hash after the move is absent, or
  // when `quiet_unfiltered` and the move removes no stone.
  LightScan ScanLightPlay(Color c, int start, int count,
                          bool multi_stone_suicide, const uint64_t* filter,
                          uint64_t filter_mask, bool quiet_unfiltered);

  // Play(p, c) when c may play the board point p (Check(p, c) == kLegal:
  // simple ko binding c, no suicide) and no repetition rule can object: with
  // `filter` (null: none) a bit set of the board hashes the move must not
  // recreate (hash h is present when bit h.lo & 63 of word
  // (h.lo >> 6) & filter_mask is set), a move that captures is looked up,
  // one that removes nothing only when `check_quiet`. Otherwise changes
  // nothing and returns false. Checked and played in one pass: the fast
  // path of replaying recorded moves (Game::TryPlayMoves()), where it costs
  // little more than Play(). Precondition: 0 <= p < kNumCells.
  bool PlayChecked(Point p, Color c, const uint64_t* filter,
                   uint64_t filter_mask, bool check_quiet);

  // LightPlayout() (rules/playout.h): light-policy moves, `to_play` first,
  // until two consecutive passes or `max_moves` plies; returns the plies
  // played. Here so that a whole playout runs in one function of this file.
  int PlayLightGame(Color to_play, Rng& rng, int max_moves);

  // True when c at p would capture at least one opponent chain.
  // Precondition: p is an empty board point.
  bool Captures(Point p, Color c) const {
    // Inline for the common case of no opponent neighbour at all.
    return (nbr_[p] & NbrMask(Opponent(c))) != 0 && CapturesNear(p, c);
  }

  // What playing c at p would do: hash afterwards, captures, suicide.
  // Precondition: the move is legal (Check() == kLegal with the suicide
  // setting in force). Allocation-free; walks only captured chains.
  MovePreview Preview(Point p, Color c) const;

  // True when every neighbour of empty point p is colour c or a wall.
  bool IsEyeLike(Point p, Color c) const {
    return (nbr_[p] & (kEmptyMask | NbrMask(Opponent(c)))) == 0;
  }
  // The light policy's "own eye": eye-like, and of the diagonal points at
  // most one is an opponent stone (none on the edge or in the corner).
  bool IsOwnEye(Point p, Color c) const {
    return IsEyeLike(p, c) && DiagonalsAllowEye(p, c);
  }

  // The empty points by the colours their empty region reaches (area
  // counting, rules/scoring.h): only black stones, only white stones, or
  // both or neither. Allocation-free; a point without empty neighbours (a
  // region of its own, most of them at the end of a self-play game) costs
  // one load.
  struct EmptyRegions {
    int black = 0;
    int white = 0;
    int other = 0;
  };
  EmptyRegions CountEmptyRegions() const;

  // Exact number of distinct liberties of the chain through stone p
  // (slow path: walks the chain). Precondition: p holds a stone.
  int Liberties(Point p) const;
  // Number of stones in the chain through stone p.
  int ChainSize(Point p) const { return size_[chain_[p]]; }
  // True when stones p and q belong to the same chain.
  bool SameChain(Point p, Point q) const { return chain_[p] == chain_[q]; }

  // Setup (SGF AB/AW/AE, handicap): sets board point p to c (kEmpty clears)
  // without captures, then rebuilds chains. Clears the ko point. May leave
  // chains without liberties; callers check HasDeadChains(). Slow path.
  void SetStone(Point p, Color c);
  // SetStone() of each point of `empty`, then `black`, then `white`, with
  // one rebuild at the end (the same board as the one-by-one calls).
  void SetStones(absl::Span<const Point> empty, absl::Span<const Point> black,
                 absl::Span<const Point> white);
  // True when some chain has no liberty (only possible after SetStone()).
  bool HasDeadChains() const;

  // Checks every internal invariant against a recomputation (tests).
  bool Consistent() const;

  // ASCII diagram: rows top to bottom, 'X' black, 'O' white, '.' empty,
  // columns separated by spaces, no coordinates.
  std::string ToString() const;

 private:
  // Neighbour packing in nbr_: for each of black, white and empty, a 4-bit
  // direction mask (bit d set when the neighbour in direction kDirs[d] has
  // that colour; walls set none) and a 3-bit count. A move finds the
  // neighbours it merges with or may capture in the masks, and the counts
  // come without a population count (x86-64 has no POPCNT). Both change
  // in one addition per neighbour.
  static constexpr int kBlackShift = 0;
  static constexpr int kWhiteShift = 4;
  static constexpr int kEmptyShift = 8;
  static constexpr uint32_t kEmptyMask = 0xF << kEmptyShift;
  static constexpr int Shift(Color c) {
    return c == Color::kBlack   ? kBlackShift
           : c == Color::kWhite ? kWhiteShift
                                : kEmptyShift;
  }
  // Where the count of colour c starts.
  static constexpr int CountShift(Color c) {
    return c == Color::kBlack ? 12 : c == Color::kWhite ? 16 : 20;
  }
  static constexpr uint32_t NbrMask(Color c) {
    return c == Color::kBlack ? 0xF << kBlackShift : 0xF << kWhiteShift;
  }
  // What a neighbour of colour c in direction d adds to nbr_ (0 for a
  // wall).
  static constexpr uint32_t NbrBit(Color c, int d) {
    return c == Color::kWall ? 0
                             : (uint32_t{1} << (Shift(c) + d)) +
                                   (uint32_t{1} << CountShift(c));
  }
  // Number of neighbours of colour c that nbr (an nbr_ entry) records.
  static int NbrCount(uint32_t nbr, Color c) {
    return static_cast<int>((nbr >> CountShift(c)) & 7);
  }

  // The scratch chain: the chain_ of every empty point and wall. Cell 0 is
  // a wall, so no real chain has this head. Its libs_ entry is kScratchLibs
  // between calls (Play() adjusts it blindly while it runs and restores
  // it), far above any adjacency count: updating "the chain of a neighbour"
  // needs no test of the neighbour's colour, and a wall never looks like a
  // chain whose last liberty is being filled.
  static constexpr Point kScratch = 0;
  static constexpr int16_t kScratchLibs = 0x2000;

  static constexpr int kDirs[4] = {-kStride, -1, 1, kStride};

  // 1 when cell n holds colour c, else 0 (never a branch).
  unsigned IsColor(int n, Color c) const {
    return (static_cast<unsigned>(static_cast<uint8_t>(color_[n]) ^
                                  static_cast<uint8_t>(c)) -
            1u) >>
           31;
  }
  // Check() for a point without empty neighbours.
  MoveCheck CheckCrowded(Point p, Color c, bool multi_stone_suicide) const;
  // The diagonal half of IsOwnEye().
  bool DiagonalsAllowEye(Point p, Color c) const;
  void AddEmpty(Point p) {
    empty_index_[p] = num_empty_;
    empty_[num_empty_++] = p;
  }
  // Merges chain b into chain a (both heads), relabelling b's stones; the
  // bigger chain absorbs the smaller (a on ties).
  void MergeChains(Point a, Point b);

  // The hot paths as templates on the colour (kC) to move, defined and
  // used in board.cc only.
  //
  // CheckCrowded() == kLegal.
  template <Color kC>
  bool CrowdedLegal(int p, bool multi_stone_suicide) const;
  // CrowdedLegal() past its quick test. `nbr` is nbr_[p].
  template <Color kC>
  bool CrowdedLegalExact(intptr_t p, unsigned nbr,
                         bool multi_stone_suicide) const;
  // DiagonalsAllowEye().
  template <Color kC>
  bool EyeDiagonals(int p) const;
  // ScanLight()'s verdict on an empty point with no empty neighbour: not
  // kC's own eye and legal for kC (with or without multi-stone suicide).
  // `nbr` is nbr_[p].
  template <Color kC>
  bool CrowdedAcceptable(int p, unsigned nbr,
                         bool multi_stone_suicide = false) const;
  template <Color kC>
  int ScanLightT(int start, int count, bool multi_stone_suicide) const;
  template <Color kC>
  LightScan ScanLightPlayT(int start, int count, bool multi_stone_suicide,
                           const uint64_t* filter, uint64_t filter_mask,
                           bool quiet_unfiltered);
  // Preview() for colour kC.
  template <Color kC>
  MovePreview PreviewT(int p) const;
  // Captures() when p has an opponent neighbour.
  bool CapturesNear(Point p, Color c) const;
  // Captures() for colour kC.
  template <Color kC>
  bool CapturesT(int p) const;
  // Removes the chain of colour kC with head `head`; returns its size.
  template <Color kC>
  int RemoveChainOf(int head, RemovedStones* removed);
  // What a guarded PlayAt() refuses besides suicides: with `filter`
  // (null: nothing), a move after which the board hash may be one of
  // `filter`'s (hash h is present when bit h.lo & 63 of word
  // (h.lo >> 6) & mask is set) -- checked for moves that remove no stone
  // only when `check_quiet`.
  struct RepeatGuard {
    const uint64_t* filter = nullptr;
    uint64_t mask = 0;
    bool check_quiet = false;
  };
  // Play() of the point p at position `index` of empty_; returns true.
  // With kGuarded, a suicide, or a move `guard` refuses, is not played:
  // the board is left as it was and the result is false. The guard costs
  // next to nothing for a move that captures nothing.
  template <Color kC, bool kGuarded = false>
  bool PlayAt(intptr_t p, intptr_t index, RemovedStones* removed,
              const RepeatGuard& guard = {});
  // The guard of PlayAt<kC, true>(): false when the move must not be
  // played. `some_zero` tells whether a neighbour's chain is left without
  // pseudo-liberties.
  template <Color kC>
  bool Guarded(intptr_t p, unsigned nbr, bool some_zero,
               const RepeatGuard& guard) const;
  template <Color kC>
  Point PlayLightT(int start);
  // One move of PlayLightGame(); true when it was a pass.
  template <Color kC>
  bool PlayLightDraw(Rng& now, Rng& after, uint64_t& ahead);

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
  // The empty points, in the order the light policy scans them.
  std::array<Point, kMaxPoints> empty_{};

  // Per-cell state as separate arrays rather than one struct per cell: the
  // hot loops need only one or two fields of a neighbour (the policy scan
  // reads nbr_ alone), the element sizes index without scaling tricks, and
  // a 9x9 board's used prefix of all of them spans about 60 cache lines.
  //
  // Contents of each cell; kWall outside the board in use.
  std::array<Color, kNumCells> color_{};
  // Directions of the black, white and empty orthogonal neighbours (see
  // the shifts); the rest are walls. Exact on board points and on the
  // walls around them.
  std::array<uint32_t, kNumCells> nbr_{};
  // Head of the chain on stones; kScratch on empty points and walls.
  std::array<Point, kNumCells> chain_{};
  // Next stone of the chain (circular); valid on stones only.
  std::array<Point, kNumCells> next_{};
  // Pseudo-liberties of the chain (number of (stone, empty neighbour)
  // adjacencies); valid on chain heads and on kScratch (kScratchLibs).
  std::array<int16_t, kNumCells> libs_{};
  // Stones in the chain; valid on chain heads only.
  std::array<int16_t, kNumCells> size_{};
  // Position in empty_; valid on empty points only.
  std::array<int16_t, kNumCells> empty_index_{};
};

}  // namespace qipu::rules

#endif  // QIPU_RULES_BOARD_H_

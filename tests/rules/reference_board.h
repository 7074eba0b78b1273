// A deliberately simple, obviously correct implementation of the rules, for
// cross-checking rules/board.h and rules/game.h in the stress tests.
//
// ReferenceBoard keeps nothing but colours in a dense y * width + x array:
// chains and liberties come from flood fills, captures from the definition
// (place, remove opponent chains without liberties, then the own chain if
// it has none), the hash from scratch with StoneKey(). Simple ko is stated
// differently from Board's ko point on purpose: a move may not recreate the
// board as it was before the opponent's last move.
//
// ReferenceGame adds the history: every position stored in full and
// compared by content (never by hash), superko and the art. 20 cycle rule
// read straight from the spec (shared/spec/rules.md section 3), and cycle
// classification from the moves inside the cycle.
//
// Both are slow (allocate freely) and meant for tests only.
#ifndef QIPU_TESTS_RULES_REFERENCE_BOARD_H_
#define QIPU_TESTS_RULES_REFERENCE_BOARD_H_

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "rules/board.h"
#include "rules/game.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "rules/types.h"
#include "rules/zobrist.h"

namespace qipu::rules {

// What a move did on a ReferenceBoard.
struct ReferencePlay {
  // Opponent stones removed.
  int captured = 0;
  // Own stones removed (legal multi-stone suicide).
  int suicided = 0;
  // The opponent could recreate the previous board at once by retaking a
  // single stone (what Board calls a basic-ko capture).
  bool ko_capture = false;
};

class ReferenceBoard {
 public:
  // An empty width x height board.
  ReferenceBoard(int width, int height);
  // The colours of `board` (no ko history).
  explicit ReferenceBoard(const Board& board);

  int width() const { return width_; }
  int height() const { return height_; }
  // Colour of board point p. Precondition: p is on this board.
  Color at(Point p) const { return cells_[Index(p)]; }
  bool OnBoard(Point p) const;
  // Number of stones of colour c.
  int Stones(Color c) const;

  // The stones of the chain through stone p, and its distinct liberties,
  // by flood fill.
  std::vector<Point> Chain(Point p) const;
  std::vector<Point> ChainLiberties(Point p) const;

  // Verdict on c at board point p: occupied, suicide (single-stone always,
  // multi-stone unless allowed), ko (recreates the board before the last
  // move), else legal.
  MoveCheck Check(Point p, Color c, bool multi_stone_suicide) const;
  // The colours after c plays at p and what the move does, without
  // playing it. Precondition: p is empty.
  std::vector<Color> After(Point p, Color c, ReferencePlay* play) const;
  // Plays c at p. Precondition: Check() returned kLegal.
  ReferencePlay Play(Point p, Color c);
  // A pass: the next move has no ko restriction.
  void Pass();

  // Zobrist hash from scratch: XOR of StoneKey() over the stones.
  Hash128 Hash() const;
  const std::vector<Color>& cells() const { return cells_; }
  // "" when `board` has the same size and colours, else the first
  // difference, for test messages.
  std::string Diff(const Board& board) const;

 private:
  int Index(Point p) const { return PointY(p) * width_ + PointX(p); }
  Point PointAt(int i) const { return MakePoint(i % width_, i / width_); }
  // The on-board neighbours of dense index i.
  struct Neighbourhood {
    int count = 0;
    int index[4];
    const int* begin() const { return index; }
    const int* end() const { return index + count; }
  };
  Neighbourhood Neighbours(int i) const;
  // Dense indices of the chain through index i of `cells`, into *chain
  // (a buffer reused across calls, so that the tests stay fast under ASan).
  void ChainOf(const std::vector<Color>& cells, int i,
               std::vector<int>* chain) const;
  bool HasLiberty(const std::vector<Color>& cells,
                  const std::vector<int>& chain) const;

  int width_;
  int height_;
  std::vector<Color> cells_;
  // Flood-fill marks: index i is visited when mark_[i] == generation_.
  mutable std::vector<unsigned> mark_;
  mutable unsigned generation_ = 0;
  // The colours before the last move; empty after a pass or at the start.
  std::vector<Color> before_last_;
  // Who made the last move (kEmpty after a pass or at the start): the ko
  // restriction binds the other player only.
  Color last_mover_ = Color::kEmpty;
};

// A game on a ReferenceBoard under a full rule set, with the same verdict
// and record types as Game so that the two can be compared field by field.
class ReferenceGame {
 public:
  ReferenceGame(int width, int height, const Rules& rules);

  const ReferenceBoard& board() const { return board_; }
  Color to_play() const { return to_play_; }
  int num_moves() const { return static_cast<int>(moves_.size()); }
  bool over() const { return result_.reason != EndReason::kNotOver; }
  const GameResult& result() const { return result_; }
  const std::vector<CycleRecord>& cycles() const { return cycles_; }
  int ko_captures() const { return ko_captures_; }
  int captures(Color c) const { return captures_[PlayerIndex(c)]; }

  // The verdict on the player to move playing p (a board point or kPass).
  MoveVerdict Check(Point p) const;
  // Check(), then the move when legal; prevented cycles are recorded.
  MoveVerdict TryPlay(Point p);

 private:
  struct Position {
    std::vector<Color> cells;
    Color to_play;
    // Captures so far by Black and White.
    int black_caps;
    int white_caps;
    // What the move leading here did.
    bool pass;
    int captured;
    bool ko_capture;
    // The move leading here recreated an earlier position under pure
    // simple ko, or was a pass right after such a move.
    bool repeats;
  };

  CycleRecord Classify(int start, Point p, const ReferencePlay& play) const;
  void End(Winner w, EndReason reason);

  Rules rules_;
  ReferenceBoard board_;
  Color to_play_ = Color::kBlack;
  int passes_ = 0;
  int move_cap_;
  int ko_captures_ = 0;
  int captures_[2] = {0, 0};
  GameResult result_;
  std::vector<Position> history_;
  std::vector<Point> moves_;
  std::vector<CycleRecord> cycles_;
  // Positions by content, to history indices (ascending).
  std::map<std::vector<Color>, std::vector<int>> by_board_;
};

// GoogleTest printers for the rules' value types, so that failed
// comparisons say "suicide" rather than "1-byte object <01>".
void PrintTo(MoveCheck c, std::ostream* os);
void PrintTo(IllegalReason r, std::ostream* os);
void PrintTo(const CycleRecord& r, std::ostream* os);
void PrintTo(const GameResult& r, std::ostream* os);
void PrintTo(const Hash128& h, std::ostream* os);
void PrintTo(Color c, std::ostream* os);

}  // namespace qipu::rules

#endif  // QIPU_TESTS_RULES_REFERENCE_BOARD_H_

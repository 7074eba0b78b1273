// Ladders as KataGo's input planes 14-17 see them (cpp/neuralnet/
// nninputs.cpp iterLadders(), cpp/game/board.cpp searchIsLadderCaptured()
// and searchIsLadderCapturedAttackerFirst2Libs()), read on a position of
// the rules core:
//
// - a chain with 1 liberty is "laddered" when the defender, moving first,
//   cannot escape a sequence of ataris: each defender move is a capture
//   that gains liberties or the chain's own liberty, each attacker move one
//   of the chain's 2 liberties; the defender escapes with 3 liberties, or
//   with 2 when the attacker is to move and cannot atari again; a ko the
//   attacker's move leaves counts as an escape (ladders that hang on a ko
//   are not ladders); the ko of the position is ignored at the start;
// - a chain with 2 liberties is laddered when the attacker, moving first
//   on one of them, makes it a laddered 1-liberty chain; those liberties
//   are its "working moves";
// - as KataGo: suicide is never legal in a ladder, a search of more than
//   25,000 moves counts as an escape, a sequence deeper than 1.5 x the
//   board's points as a capture.
//
// - as KataGo, the attacker wins a "double ko death": both liberties are
//   ko mouths the attacker would capture in, connecting at either gives
//   the defender at most 2 liberties and the chain touches no opposing
//   chain in atari.
//
// KataGo also prunes and orders its search with liberty bounds (exact
// conditions, not guesses); this reader searches every move those rules
// allow, so the answers agree wherever neither search runs out of budget.
//
// Not thread-safe (scratch state); one reader per thread. Allocates only
// when first used.
#ifndef QIPU_TRAIN_LADDER_H_
#define QIPU_TRAIN_LADDER_H_

#include <array>
#include <cstdint>
#include <vector>

#include "rules/board.h"
#include "rules/types.h"

namespace qipu::train {

// What one board's ladders are.
struct Ladders {
  // Every stone of every laddered chain (KataGo's plane 14 of the board).
  std::vector<rules::Point> stones;
  // The working moves against laddered 2-liberty chains of the colour
  // asked for (KataGo's plane 17: the opponent's chains, seen by the side
  // to move).
  std::vector<rules::Point> working_moves;
};

// The stones of a board, cell by cell as rules::Board numbers them
// (kWall outside the board): a cheap snapshot of a position.
using Cells = std::array<rules::Color, rules::kNumCells>;

// The cells of `board`. (OUT) *cells.
void SnapshotCells(const rules::Board& board, Cells* cells);

class LadderReader {
 public:
  LadderReader() = default;

  // Reads every chain of the width x height position `cells` with 1 or 2
  // liberties; working moves are collected for the 2-liberty chains of
  // `working_color` only. (OUT) *out (cleared first).
  void Read(const Cells& cells, int width, int height,
            rules::Color working_color, Ladders* out);

  // True when the chain through stone `p` of `board` is laddered (tests).
  bool IsLaddered(const rules::Board& board, rules::Point p);

 private:
  // Loads a position into color_.
  void Load(const Cells& cells, int width, int height);
  // Liberties of the chain through p, up to `cap` (stops counting there);
  // the chain's stones into chain_ when `collect`.
  int ChainLiberties(rules::Point p, int cap, bool collect);
  // The liberties of the chain through p (all of them) into *libs.
  void LibertiesOf(rules::Point p, std::vector<rules::Point>* libs);
  // Plays c at p when legal (no suicide, not the ko point); false and no
  // change otherwise. The move goes on the undo log.
  bool Play(rules::Point p, rules::Color c);
  // Takes back the last Play().
  void Undo();
  // Liberties (up to 3) of c's chain after c plays at p; 0 when illegal.
  int LibertiesAfter(rules::Point p, rules::Color c);
  // The defender (the colour of the chain at `target`) to move: true
  // when every move it has leaves the chain captured by a ladder.
  bool DefenderLoses(rules::Point target, int depth);
  // The attacker to move on a chain of 2 liberties: true when one of
  // them captures it by a ladder.
  bool AttackerWins(rules::Point target, int depth);
  // searchIsLadderCaptured() with the defender first and the ko cleared.
  bool CapturedDefenderFirst(rules::Point target);
  // searchIsLadderCapturedAttackerFirst2Libs(); the working liberties into
  // *working.
  bool CapturedAttackerFirst(rules::Point target,
                             std::vector<rules::Point>* working);

  int width_ = 0;
  int height_ = 0;
  int max_depth_ = 0;
  int nodes_ = 0;
  // True once the node budget ran out (the search then counts as escape).
  bool out_of_budget_ = false;
  rules::Point ko_ = rules::kNoPoint;
  Cells color_{};
  // Per Read(): 1 + the answer for the stones of chains already read.
  std::array<uint8_t, rules::kNumCells> solved_{};
  // Flood-fill marks: mark_[p] == stamp_ when visited by the current fill.
  std::array<uint32_t, rules::kNumCells> mark_{};
  std::array<uint32_t, rules::kNumCells> lib_mark_{};
  uint32_t stamp_ = 0;
  std::vector<rules::Point> chain_;
  std::vector<rules::Point> todo_;
  std::vector<rules::Point> libs_;
  // Undo log: per move its point, the ko before it and how many captured
  // stones (of the opponent's colour) follow it on captured_.
  struct Step {
    rules::Point point;
    rules::Point ko_before;
    int captured_begin;
  };
  std::vector<Step> steps_;
  std::vector<rules::Point> captured_;
};

}  // namespace qipu::train

#endif  // QIPU_TRAIN_LADDER_H_

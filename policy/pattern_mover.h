// PatternMover: the move choice of a `pattern` playout on a bare board
// (simple ko, the board's suicide setting), MoGo/Pachi style. In order:
//
//  1. Tactics around the last move (always, when one applies):
//     - capture: the chain of the last move is in atari -> take its
//       liberty;
//     - save: an own chain next to the last move is in atari -> capture an
//       adjacent opponent chain in atari if there is one, else extend on
//       the liberty when that leaves the chain at least two liberties (no
//       running into a ladder).
//  2. Local 3x3 patterns (self-ataris excluded, as in steps 3 and 1's
//     extensions): the empty points among the 8 neighbours of the
//     last move compete with their pattern weights gamma (patterns.h)
//     against a fixed mass kLocalRest that stands for "play elsewhere":
//     neighbour q is chosen with probability gamma(q) / (sum + kLocalRest).
//  3. Global: up to kGlobalTries random empty points, each accepted with
//     probability min(1, gamma / kGlobalAccept) (bad shapes -- first-line
//     crawls, filling own territory -- are mostly rejected) unless it is a
//     self-atari (SelfAtari()).
//  4. The light policy (a scan from a random start), skipping self-ataris
//     that join an own chain; with only those left, a pass (a seki stays
//     alive; a single-stone throw-in is still played).
// Without the self-atari test the tactics make playouts lopsided: the side
// whose stones are in contact more often loses them one by one.
// Every candidate must be legal for the board and not the mover's own eye
// (Board::IsOwnEye); with none left the mover passes.
//
// Not thread-safe (scratch marks for chain walks): one per thread. Never
// allocates after construction.
#ifndef QIPU_POLICY_PATTERN_MOVER_H_
#define QIPU_POLICY_PATTERN_MOVER_H_

#include <array>
#include <cstdint>

#include "policy/patterns.h"
#include "rules/board.h"
#include "rules/playout.h"
#include "rules/types.h"

namespace qipu::policy {

class PatternMover {
 public:
  // Weight of "not a local move" against the local candidates' gammas.
  static constexpr double kLocalRest = 3.0;
  // Random global candidates tried before the light policy.
  static constexpr int kGlobalTries = 4;
  // gamma at and above which a global candidate is always accepted.
  static constexpr double kGlobalAccept = 1.0;

  // `weights` must outlive the mover.
  explicit PatternMover(
      const PatternWeights& weights = PatternWeights::Default());

  // The playout move for c on `board`, whose last move was at `last`
  // (a board point, or kPass / kNoPoint when there is none to answer).
  // Returns a point where board.Check(p, c, multi_stone_suicide) is kLegal
  // and that is not c's own eye, or kPass when there is none.
  rules::Point Choose(const rules::Board& board, rules::Color c,
                      rules::Point last, rules::Rng& rng,
                      bool multi_stone_suicide = false);

  // Step 1 alone: the tactical move, or kNoPoint.
  rules::Point Tactic(const rules::Board& board, rules::Color c,
                      rules::Point last, bool multi_stone_suicide = false);

  // Up to two distinct liberties of the chain through stone p other than
  // `ignore`, in libs[0..n) where n (returned) is 0, 1 or 2 (2 means "two
  // or more"). Walks the chain from p and stops at the second liberty.
  int ChainLiberties(const rules::Board& board, rules::Point p,
                     rules::Point libs[2],
                     rules::Point ignore = rules::kNoPoint);

  // True when c at empty point p would leave its chain with one liberty
  // (or none) without capturing anything: a self-atari.
  bool SelfAtari(const rules::Board& board, rules::Point p, rules::Color c);

  // True when c at p touches one of its own stones (p a board point).
  static bool JoinsOwnChain(const rules::Board& board, rules::Point p,
                            rules::Color c) {
    return board.at(static_cast<rules::Point>(p - rules::kStride)) == c ||
           board.at(static_cast<rules::Point>(p - 1)) == c ||
           board.at(static_cast<rules::Point>(p + 1)) == c ||
           board.at(static_cast<rules::Point>(p + rules::kStride)) == c;
  }
  const PatternWeights& weights() const { return weights_; }

 private:
  // True when c may play p as a playout move: empty, legal, not own eye.
  static bool Playable(const rules::Board& board, rules::Point p,
                       rules::Color c, bool multi_stone_suicide) {
    return board.at(p) == rules::Color::kEmpty && !board.IsOwnEye(p, c) &&
           board.IsLegal(p, c, multi_stone_suicide);
  }
  // Step 1's "save" for the own chain through stone s in atari with
  // liberty `lib`: the move, or kNoPoint.
  rules::Point Save(const rules::Board& board, rules::Color c, rules::Point s,
                    rules::Point lib, bool multi_stone_suicide);
  // Starts a new chain walk (a fresh mark value).
  void NewWalk();
  bool Marked(rules::Point p) const { return mark_[p] == epoch_; }
  void Mark(rules::Point p) { mark_[p] = epoch_; }

  const PatternWeights& weights_;
  // Cells visited by the current walk carry epoch_.
  std::array<uint16_t, rules::kNumCells> mark_{};
  uint16_t epoch_ = 0;
  // Stack of a chain walk.
  std::array<rules::Point, rules::kMaxPoints> stack_{};
  // Opponent stones next to the chain of the last ChainLiberties() call
  // (up to kMaxAdjacent; distinct chains not guaranteed).
  static constexpr int kMaxAdjacent = 16;
  std::array<rules::Point, kMaxAdjacent> adjacent_{};
  int num_adjacent_ = 0;
};

}  // namespace qipu::policy

#endif  // QIPU_POLICY_PATTERN_MOVER_H_

// Playouts of a search: a game played to its end on a bare board (simple
// ko, the rules' suicide setting; no superko or cycle rule -- the tree
// checks those for its own moves) by the light or the pattern playout
// policy, recording which colour played each point first (for AMAF), and
// scored by area counting under the game's rules.
#ifndef QIPU_POLICY_PLAYOUT_H_
#define QIPU_POLICY_PLAYOUT_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "policy/pattern_mover.h"
#include "rules/board.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "rules/result.h"
#include "rules/rules.h"

namespace qipu::policy {

// Which policy plays a search's playouts.
enum class PlayoutKind : uint8_t {
  // The light policy (rules/playout.h): the fastest.
  kRandom = 0,
  // PatternMover: tactics and 3x3 patterns.
  kPattern,
};
// "random" or "pattern".
const char* PlayoutKindName(PlayoutKind k);
// Parses "random" or "pattern"; InvalidArgument naming the accepted values.
absl::StatusOr<PlayoutKind> ParsePlayoutKind(absl::string_view s);

// The point of the last move of `game`: a board point, kPass, or kNoPoint
// before the first move.
rules::Point LastMovePoint(const rules::Game& game);

// Colour that first played each cell in a playout (kEmpty: none).
using FirstPlay = std::array<rules::Color, rules::kNumCells>;

// The winner of `board` counted under `rules` with `handicap` stones
// (kBlack, kWhite or kDraw): every stone alive, komi and handicap
// compensation applied.
rules::Winner CountWinner(const rules::Board& board, const rules::Rules& rules,
                          int handicap);

// Runs playouts. Not thread-safe: one per thread. Never allocates.
class PlayoutRunner {
 public:
  explicit PlayoutRunner(PlayoutKind kind) : kind_(kind) {}

  // Plays `board` from `to_play` (whose opponent last played `last`: a
  // board point, kPass, or kNoPoint) until two consecutive passes -- a
  // `last` of kPass counts as the first -- or `max_moves` plies. For each
  // point played whose entry in *first is kEmpty, sets it to the mover's
  // colour (first may be null). Returns the plies played.
  int Run(rules::Board& board, rules::Color to_play, rules::Point last,
          rules::Rng& rng, int max_moves, bool multi_stone_suicide,
          FirstPlay* first);

  PlayoutKind kind() const { return kind_; }

 private:
  PlayoutKind kind_;
  PatternMover mover_;
};

}  // namespace qipu::policy

#endif  // QIPU_POLICY_PLAYOUT_H_

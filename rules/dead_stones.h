// Dead stones: qipu's judgement of the stones of a final position -- which
// chains are alive, dead or in seki when a game ends by two passes with
// stones on the board that a count should take off (art. 21.4: life and
// death are agreed before counting; engines such as GNU Go pass with the
// opponent's dead stones still on the board).
//
// The judgement:
//   1. Ownership: `playouts` playouts from the position -- light ones
//      (rules/playout.h, the board's own rules), or the caller's (qipu's
//      judgement uses pattern playouts: policy/stone_judge.h) -- half with
//      Black to move first, half with White; at the end of each, a point
//      belongs to the colour of its stone, or of the stones around it when it
//      is an empty point all of whose neighbours are one colour. A chain's
//      survival is the share of playouts in which its stones' points end as its
//      colour (averaged over its stones).
//   2. Seki: a shared liberty is an empty point of a region that reaches
//      both colours where neither colour can play without capturing
//      nothing and leaving the chain it makes with at most one liberty. A
//      chain next to a shared liberty is in seki unless the playouts
//      almost always capture it (survival < kSekiFloor): random play
//      breaks sekis, so their chains survive about half the playouts.
//   3. Dead: any other chain that survives fewer than half the playouts,
//      unless no stone of the other colour touches it or an empty region
//      next to it (nothing could capture it: random play's coin flips on
//      an open board are no verdict).
//   4. Again on the board without the dead chains: a chain next to a
//      shared liberty there is in seki (a seki the dead stones hid).
// Bent four in the corner and other shapes that Chinese counting settles
// by play are judged as the playouts find them; where the players'
// judgements differ, play settles it (art. 21.4, match/).
//
// Deterministic: the playouts draw from a fixed seed (the same position
// is always judged alike). Allocation only for the result's lists; the
// playouts themselves never allocate. Thread-safe (pure functions).
#ifndef QIPU_RULES_DEAD_STONES_H_
#define QIPU_RULES_DEAD_STONES_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"
#include "rules/board.h"
#include "rules/game.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "rules/scoring.h"

namespace qipu::rules {

// A stone's status at the end of a game (GTP's final_status_list).
enum class StoneStatus : uint8_t { kAlive = 0, kDead, kSeki };
// "alive", "dead", "seki".
const char* StoneStatusName(StoneStatus s);

// Below this survival a chain next to a shared liberty is dead, not in
// seki (see the file comment).
inline constexpr double kSekiFloor = 0.2;

// How hard to look. Plain value.
struct JudgeOptions {
  // Light playouts from the position (>= 2; half with each colour first).
  int playouts = 400;
  // Their seed; the default is qipu's, so that every judgement of a
  // position agrees.
  uint64_t seed = 0x6A75646765ULL;  // "judge"
};

// The judgement of one position. Plain value.
struct StoneJudgement {
  // Per cell: the status of the stone there (kAlive on empty cells).
  std::array<StoneStatus, kNumCells> status{};
  // Per cell: playouts in which the point ended Black's, White's.
  std::array<uint16_t, kNumCells> black_owned{};
  std::array<uint16_t, kNumCells> white_owned{};
  // Playouts played.
  int playouts = 0;
  // The dead stones, in board order (top-left first).
  std::vector<Point> dead;

  // Share of the playouts in which p ended as colour c's, 0..1.
  double Owned(Point p, Color c) const {
    if (playouts == 0) return 0;
    return (c == Color::kBlack ? black_owned[p] : white_owned[p]) /
           static_cast<double>(playouts);
  }
};

// A playout: plays `board` on from `to_play` to its end (two passes, or a
// cap on the moves) with some playout policy drawing from `rng`.
using PlayoutFn =
    absl::FunctionRef<void(Board& board, Color to_play, Rng& rng)>;

// Judges the stones of `board` (see the file comment) with `playout`.
// Precondition: options.playouts within 2..65535.
StoneJudgement JudgeStones(const Board& board, const JudgeOptions& options,
                           PlayoutFn playout);
// The same with light playouts (rules/playout.h).
StoneJudgement JudgeStones(const Board& board,
                           const JudgeOptions& options = {});

// The chains of `board` whose stones have status `status` in `judgement`,
// each as its stones in board order, chains in the board order of their
// first stone. `judgement` must be of `board`.
std::vector<std::vector<Point>> ChainsWithStatus(
    const Board& board, const StoneJudgement& judgement, StoneStatus status);

// The shared liberties of `board` (see the file comment), per cell.
std::array<bool, kNumCells> SharedLiberties(const Board& board);

// `board` with the stones at `dead` taken off (points not holding a stone
// are ignored).
Board WithoutStones(const Board& board, absl::Span<const Point> dead);

// The count of the final position of `game` with the stones at `dead`
// taken off: ScoreResult() of CountArea() under the game's rules (dame,
// komi, handicap compensation), with `counting` as the result's counting.
GameResult CountWithout(const Game& game, absl::Span<const Point> dead,
                        Counting counting);

// Every stone of the chains through `stones`, in board order, without
// repeats: a list of dead stones made whole (a player may name one stone
// of a chain). Points that hold no stone are dropped.
std::vector<Point> WholeChains(const Board& board,
                               absl::Span<const Point> stones);

}  // namespace qipu::rules

#endif  // QIPU_RULES_DEAD_STONES_H_

// Game results from one side's point of view, game points (art. 27.1),
// result texts both ways, and the drawing of lots.
#ifndef QIPU_TOURNAMENT_OUTCOME_H_
#define QIPU_TOURNAMENT_OUTCOME_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/tournament.pb.h"
#include "rules/result.h"

namespace qipu::tournament {

// Game points (art. 27.1): a win scores 2, a draw 1, a loss 0. A bye scores
// as a win (shared/spec/rules.md section 7).
inline constexpr int kWinPoints = 2;
inline constexpr int kDrawPoints = 1;
inline constexpr int kByePoints = kWinPoints;

// One side's view of a result.
enum class Outcome {
  kNone,        // no result yet, or void: the game counts for nobody
  kWin,         // won at the board
  kForfeitWin,  // the opponent forfeited (棄權)
  kDraw,
  kLoss,         // lost at the board
  kForfeitLoss,  // forfeited
  kBothLose,     // 雙方均負: a loss that gives the opponent nothing
};

// The outcome for Black (`black` true) or White of `result`.
Outcome OutcomeFor(v1::GameResult result, bool black);

// Game points of an outcome: 2 for a win (forfeit or not), 1 for a draw, 0
// otherwise.
int OutcomePoints(Outcome outcome);

// True when the outcome is a game that counts (not kNone).
inline bool Counts(Outcome outcome) { return outcome != Outcome::kNone; }

// True for a win, at the board or by forfeit.
inline bool IsWin(Outcome o) {
  return o == Outcome::kWin || o == Outcome::kForfeitWin;
}
// True for any loss: at the board, by forfeit, or both-lose.
inline bool IsLoss(Outcome o) {
  return o == Outcome::kLoss || o == Outcome::kForfeitLoss ||
         o == Outcome::kBothLose;
}

// True when a game with this result has a winner; false for draws, void,
// both-lose and unknown.
bool HasWinner(v1::GameResult result);

// The tournament result of a game's result (rules::GameResult) with
// `moves` moves played: a win of Black or White (at the board: count,
// resignation, time, an illegal move, a failure during the game), a
// forfeit win when the loser forfeited (EndReason::kForfeit) before any
// move was played, a draw (jigo, a drawn cycle), void otherwise (no
// result, the move cap, unknown).
v1::GameResult TournamentResult(const rules::GameResult& result, int moves);

// Parses the command-line spelling of a result: "B+", "W+", "draw" (also
// "=", "jigo"), "B+forfeit", "W+forfeit", "both-lose", "void"; also any SGF
// RE value that names a winner or a draw, read by rules::ParseSgfResult()
// ("B+3.5", "W+R", "W+Time", "0" = draw; "B+F" = forfeit: a result typed
// by hand comes with no moves, TournamentResult(result, 0)).
// Case-insensitive. InvalidArgument otherwise.
absl::StatusOr<v1::GameResult> ParseGameResult(absl::string_view text);

// The command-line spelling of `result` ("B+", "W+forfeit", "?" for
// unknown).
std::string GameResultText(v1::GameResult result);

// The lot of entrant `index` under the tournament's seed: a fixed hash
// (splitmix64), lower draws rank higher when everything else is equal
// (art. 27.1 C). The same seed always gives the same lots.
uint64_t DrawLot(uint64_t seed, int index);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_OUTCOME_H_

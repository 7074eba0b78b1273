// Standings and crosstables (art. 27).
//
// Individual events: game points (win 2, draw 1, loss 0; a bye 2).
//   - Round robin (27.1 ①): points, then SODOS (勝者小分: the points of the
//     opponents beaten plus half those of the opponents drawn), then fewer
//     warnings, then lots.
//   - Swiss (27.1 ② B): points, then SOS (對手分: the opponents' points),
//     then fewer warnings, then lots. (Method ② A, a "total score" whose
//     formula the seed texts print garbled, is not implemented.)
//   A bye adds nothing to SOS or SODOS. Forfeit wins count as wins (the
//   forfeiter's points enter SODOS) and both-lose as losses; void games
//   count for nobody. An entrant whose results were voided (art. 28.2)
//   ranks last.
// Team events (27.2): match points (2/1/0 from board points), then board
//   points, then the points of board 1, board 2, ...; entrants equal on all
//   of these share the rank ("如全部一樣，允許並列").
// Elimination: the entrants still in first, then by the round in which
//   they went out, latest first; entrants out in the same round share the
//   rank. Swiss plus knockout: the knockout's entrants ranked so, then the
//   rest by the Swiss order. Swiss with multi-loss elimination
//   (swiss_elimination.h): still in first, then by the round after which
//   they went out, latest first, each group in the Swiss order.
// Rounds a late entry missed and rounds sat out on request score the
//   event's points for them (no game, nothing to SOS or SODOS).
// Best-of: the winner first. Team challenge: the winning team first, points
//   = the games its players won.
#ifndef QIPU_TOURNAMENT_STANDINGS_H_
#define QIPU_TOURNAMENT_STANDINGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "qipu/v1/tournament.pb.h"
#include "tournament/elimination.h"
#include "tournament/field.h"

namespace qipu::tournament {

// One entrant's line in the standings.
struct StandingRow {
  // 1-based; equal for entrants that share a rank.
  int rank = 0;
  int entrant = 0;  // into players, or teams in team events
  std::string name;
  // Game points (individual) or match points (team events).
  int points = 0;
  // Sum of the opponents' points (Swiss tie-break).
  int sos = 0;
  // Sum of the points of the opponents beaten plus half those drawn
  // (round robin tie-break); a multiple of 0.5.
  double sodos = 0;
  int warnings = 0;
  // The entrant's lot (lower ranks higher when all else is equal).
  uint64_t lot = 0;
  int games = 0;
  int wins = 0;
  int draws = 0;
  int losses = 0;
  int byes = 0;
  // Rounds missed: before a late entry's first, or sat out on request.
  int absent = 0;
  bool withdrawn = false;
  bool results_void = false;
  // Team events: board points and the points of each board (board 1 first).
  int board_points = 0;
  std::vector<int> board_scores;
  // Elimination: the round in which the entrant went out (0 = still in, or
  // not in the knockout), and its losses there.
  int out_in_round = 0;
  int knockout_losses = 0;
  bool in_knockout = false;
};

// The standings of a tournament.
struct Standings {
  // The criteria in the order they rank, e.g. {"points", "sodos",
  // "warnings", "lots"}.
  std::vector<std::string> order;
  std::vector<StandingRow> rows;
};

// Computes the standings of `t` from its rounds (missing results count for
// nobody). Removed entrants (withdrawn before the start) are left out.
absl::StatusOr<Standings> ComputeStandings(const v1::Tournament& t);

// One cell of a crosstable: what an entrant did in one round.
struct CrossCell {
  int round = 0;
  // Opponent's entrant index; -1 for a bye or no game.
  int opponent = -1;
  // Opponent's rank in the standings (0 when none).
  int opponent_rank = 0;
  // 'b' Black, 'w' White (board 1 in team events), 0 none.
  char colour = 0;
  // "+" won, "-" lost, "=" drawn, "+!" won by forfeit, "-!" forfeited,
  // "x" both lost, "void", "?" no result yet, "bye", "absent" (sat out on
  // request, or before a late entry's first round), "cut" (swiss
  // elimination: out to keep the field even), "" not paired.
  std::string result;
  // Team events: the board points of the entrant and of its opponent in
  // this match (a bye: 2 a board and 0); 0 otherwise.
  int board_points = 0;
  int opponent_board_points = 0;
};

// One entrant's row: its standing and a cell per round.
struct CrossRow {
  int rank = 0;
  int entrant = 0;
  std::string name;
  int points = 0;
  // Team events: board points (standings order's second criterion).
  int board_points = 0;
  std::vector<CrossCell> cells;
};

// A crosstable: every entrant's round-by-round record.
struct Crosstable {
  int rounds = 0;
  // A team event: rows are teams, cells carry board points.
  bool teams = false;
  // In standings order.
  std::vector<CrossRow> rows;
};

// The crosstable of `t`, rows in standings order (team challenge: players in
// registration order, rank 0).
absl::StatusOr<Crosstable> ComputeCrosstable(const v1::Tournament& t);

// The elimination stage of a KNOCKOUT, DOUBLE_KNOCKOUT or SWISS_KNOCKOUT
// tournament: seeds (by order, or for SWISS_KNOCKOUT the top
// `knockout_size` of the Swiss standings after its Swiss rounds), first
// round and losses. FailedPrecondition for other systems, or before the
// Swiss rounds of a SWISS_KNOCKOUT are complete.
absl::StatusOr<EliminationStage> StageOf(const v1::Tournament& t,
                                         const Field& field);

// The entrants in seed order (Entrant::order, then index), without those
// removed before the start.
std::vector<int> SeedOrder(const Field& field);

// The entrants (not removed) in the Swiss order of art. 27.1 ② B: points,
// SOS, fewer warnings, lots (drawn from `lots`); best first. A player
// whose results are void (art. 28.2) comes last.
std::vector<int> SwissOrder(const Field& field, uint64_t lots);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_STANDINGS_H_

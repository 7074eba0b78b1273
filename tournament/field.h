// The field: every entrant of a tournament (players, or teams in a team
// event) with what the rounds so far say about it -- points, games,
// colours, opponents, byes, losses. Pairing systems and standings read
// this, never the rounds directly. Rebuilt from the Tournament message on
// every call (a few microseconds a game); nothing is cached.
#ifndef QIPU_TOURNAMENT_FIELD_H_
#define QIPU_TOURNAMENT_FIELD_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "qipu/v1/tournament.pb.h"
#include "tournament/outcome.h"

namespace qipu::tournament {

// One pairing of an entrant, from its side.
struct Meeting {
  int round = 0;  // 1-based
  int table = 0;  // 1-based
  int opponent = -1;
  // The entrant had Black (board 1 in a team match).
  bool black = false;
  // kNone while the result is unknown, and for void games.
  Outcome outcome = Outcome::kNone;
  // The pairing's result as stored (UNKNOWN, VOID ... included).
  v1::GameResult result = v1::GAME_RESULT_UNKNOWN;
  // Team matches: the entrant's board points in this match.
  int board_points = 0;
  // Team matches: the entrant's points on each board (index 0 = board 1).
  std::vector<int> board_scores;
  // The pairing is a replay of an undecided elimination game.
  bool replay = false;
};

// One entrant and its record.
struct Entrant {
  int index = 0;  // into players, or teams in a team event
  std::string name;
  // Seeding order, 1 = top (0 before the start when not set).
  int order = 0;
  int rating = 0;
  bool removed = false;        // withdrew before the start (art. 28.1)
  int withdrawn_at_round = 0;  // 0 = playing
  bool results_void = false;   // art. 28.2, under half the rounds
  int warnings = 0;
  // First round the entrant can be paired in (1, or later for a late
  // entry: TournamentPlayer.entered_at_round).
  int entered_at_round = 1;
  // SWISS_ELIMINATION: cut before this round to keep the field even
  // (Round.cut); 0 = not cut.
  int cut_at_round = 0;
  // Rounds paired before a late entry's first (each scores the event's
  // late_entry_points), and rounds sat out on request (Round.absent,
  // sit_out_points each).
  std::vector<int> late_rounds;
  std::vector<int> absent_rounds;

  // Game points (individual) or match points (team event), byes and the
  // points of missed rounds included.
  int points = 0;
  // Team events: board points, byes included, and per board.
  int board_points = 0;
  std::vector<int> board_scores;
  int wins = 0;  // forfeit wins included
  int draws = 0;
  int losses = 0;  // forfeits and both-lose included
  int games = 0;   // meetings with a counted result
  int blacks = 0;  // meetings where the entrant had Black (results or not)
  int whites = 0;
  // Colours of the last two meetings: +1 Black, -1 White, 0 none.
  int last_colour = 0;
  int colour_before_last = 0;
  std::vector<int> bye_rounds;
  // Every pairing in round order, void and unknown ones included.
  std::vector<Meeting> meetings;

  // Not withdrawn, removed or cut before round `round` (1-based), and
  // entered by then.
  bool PlaysIn(int round) const {
    return !removed &&
           (withdrawn_at_round == 0 || withdrawn_at_round > round) &&
           (cut_at_round == 0 || cut_at_round > round) &&
           entered_at_round <= round;
  }
  // Has been paired with `other` before (any result, void included).
  bool HasMet(int other) const;
};

// All entrants of a tournament.
struct Field {
  bool teams = false;
  int boards = 0;
  std::vector<Entrant> entrants;
};

// A round as a pairing system proposes it, before tables, boards and
// withdrawal forfeits are filled in (round_pairing.cc turns it into a Round).
struct RoundDraft {
  // (black, white) entrant indexes, top table first.
  std::vector<std::pair<int, int>> games;
  std::vector<int> byes;
  // Entrants sitting the round out at their request (Round.absent), and
  // those cut to keep a SWISS_ELIMINATION field even (Round.cut).
  std::vector<int> absent;
  std::vector<int> cut;
  // The games replay undecided elimination games of the previous round.
  bool replay = false;
  // Pairs in `games` who met before (Swiss with repeats allowed).
  std::vector<std::pair<int, int>> repeats;
};

// Builds the field from `t`. Entrant indexes, opponent indexes and
// meetings follow the message; pairings whose entrant indexes are out of
// range are skipped (Validate() in tournament.h reports them).
Field BuildField(const v1::Tournament& t);

// The result of a team match from its boards: BLACK_WINS when the team in
// `black` has more board points, WHITE_WINS, DRAW when equal, UNKNOWN while
// a board has no result. Forfeit on every board gives a forfeit result.
v1::GameResult TeamMatchResult(const v1::Pairing& pairing);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_FIELD_H_

// Matches between two sides: best-of-N (多局決勝, art. 26.5) and the team
// challenge (擂台賽, art. 26.6).
//
// Best-of-N: N odd, 3 to 7 ("最少為3局2勝制，最多為7局4勝制"). Colours
// alternate game by game; game 1's Black is drawn by lot. The match ends
// as soon as one side holds more than half the points of N games (a win 2,
// a draw 1): 2 wins of 3 without draws. A void game does not count and is
// played again. When N games are played and the points are level (draws),
// further single games are played until one is won (加賽, art. 27.1 C).
//
// Team challenge: two teams, each an ordered list of players (by board,
// then registration). The first players meet; the winner stays on and
// meets the next player of the other team; a player beaten is out. A draw
// or both-lose puts both players out; a void game is replayed. A team whose
// players are all out has lost; when both run out on the same game, the
// match is drawn. The player who has just come on takes Black; when both
// are new, Black is drawn by lot. A player who withdraws is out (the games
// not played are forfeits, art. 28.4).
#ifndef QIPU_TOURNAMENT_MATCH_H_
#define QIPU_TOURNAMENT_MATCH_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "qipu/v1/tournament.pb.h"
#include "tournament/field.h"

namespace qipu::tournament {

// The state of a best-of-N match between entrants `a` and `b`.
struct BestOfState {
  int a = -1;
  int b = -1;
  int a_points = 0;
  int b_points = 0;
  int games_counted = 0;  // void and unknown games excluded
  bool finished = false;
  int winner = -1;  // entrant index once finished
};

// Reads the match from the field. `two` holds the two entrants.
BestOfState ScoreBestOf(const Field& field, const std::vector<int>& two,
                        int best_of);

// Pairs game `round` of the match. FailedPrecondition when it is over.
absl::StatusOr<RoundDraft> PairBestOf(const Field& field,
                                      const std::vector<int>& two, int best_of,
                                      int round, uint64_t lots);

// The state of a team challenge.
struct ChallengeState {
  // Player indexes of each team in playing order.
  std::vector<int> team[2];
  // How many players of each team are out.
  int out[2] = {0, 0};
  // Wins of each player (index = player index); empty entries are 0.
  std::vector<int> wins;
  bool finished = false;
  // 0 or 1: the team that won; -1 while playing or when drawn.
  int winner = -1;
  bool drawn = false;
};

// Reads the challenge between teams 0 and 1 of `t` from its rounds.
// FailedPrecondition unless `t` has exactly two teams, each with a player.
absl::StatusOr<ChallengeState> ScoreChallenge(const v1::Tournament& t,
                                              const Field& field);

// Pairs game `round` of the challenge. FailedPrecondition when it is over.
absl::StatusOr<RoundDraft> PairChallenge(const v1::Tournament& t,
                                         const Field& field, int round);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_MATCH_H_

// Ratings from game results: the Bradley-Terry model with a first-move
// advantage and draws of Rémi Coulom's BayesElo, its maximum a posteriori
// (MAP) ratings, 95% intervals and the likelihood of superiority.
//
// The model. With f(d) = 1 / (1 + 10^(-d/400)) and ratings in Elo,
//   P(Black wins) = f(r_black - r_white + advantage - draw_elo)
//   P(White wins) = f(r_white - r_black - advantage - draw_elo)
//   P(draw)       = 1 - P(Black wins) - P(White wins).
// `advantage` is the first mover's (Black's) edge; with komi it may be
// negative. `draw_elo` (>= 0) widens the band of draws.
//
// The prior, as BayesElo's `prior` command: `prior_draws` virtual draws for
// each player who has played, spread over its opponents in proportion to the
// games it played with each, half with each colour (player i adds
// prior_draws * g_ij / (4 G_i) draws to each colour order of the pair {i, j},
// g_ij the games between them and G_i the games of i). A player who won (or
// lost) every game therefore gets a finite rating. BayesElo has no prior on
// the advantage and draw_elo, and its estimate of them diverges on data that
// is legal but one-sided (White never wins, everyone draws); here each has a
// weak Gaussian prior of mean 0 and `parameter_prior_sd` Elo, which moves the
// estimate from a few thousand games by far less than a tenth of an Elo.
// The virtual draws also raise draw_elo a little, as in BayesElo: from a few
// hundred games its interval holds the true value less often than 95%.
//
// The fit: Newton's method with a backtracking line search on the
// log-posterior, over the ratings, the advantage and draw_elo together (those
// two unless fixed by the options). In the natural parameters (Elo *
// ln 10 / 400) the log-posterior is concave: with u = r_black - r_white +
// advantage and d = draw_elo in those units and s the logistic function,
// P(Black wins) = s(u - d), P(White wins) = s(-u - d) and P(draw) =
// (e^(2d) - 1) s(u - d) s(-u - d), each log-concave. So damped Newton
// converges from zero, in about ten steps, and its Hessian is the one the
// intervals need anyway. Newton rather than BayesElo's
// minorization-maximization (MM): MM needs hundreds to thousands of sweeps
// when ratings spread widely, and its fixed point still needs the Hessian for
// the intervals. Each step costs O(pairs met) to build the gradient and
// Hessian plus a dense Cholesky factorisation, O(players^3): 200 players and
// 20,000 games take 7 steps and 40 to 90 ms in all, 1000 players about 3 s
// (hence kMaxRatedPlayers).
//
// Ratings are only defined up to a shift within each connected component of
// the graph of games (players who played each other, directly or through
// others). Each component's ratings are centred on `offset`, or, for the
// anchor's component when `anchor` is set, shifted so that the anchor has
// rating `offset`. A player who has not played is a component of its own,
// rated `offset` with `rated` false.
//
// Intervals: the covariance of the ratings is the inverse of the negated
// Hessian of the log-posterior at the MAP (with one player per component
// held fixed, then mapped to the centred or anchored ratings as BayesElo
// does), over all free parameters, so the uncertainty of the advantage and
// draw_elo is included. An interval is rating +- 1.96 standard deviations
// (BayesElo's "elo +- " columns, made symmetric). Anchored ratings have the
// uncertainty of their difference from the anchor; the anchor's is zero.
//
// Thread-safety: ComputeRatings is a pure function; concurrent calls are
// safe.
#ifndef QIPU_TOURNAMENT_RATINGS_H_
#define QIPU_TOURNAMENT_RATINGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace qipu::tournament {

// The result of one rated game, from the board's point of view.
enum class RatedOutcome : uint8_t {
  kBlackWins = 0,
  kWhiteWins = 1,
  kDraw = 2,
};

// One game for the ratings: the players by index into the caller's list of
// players, Black being the first mover.
struct RatedGame {
  // Index of the player who had Black, in [0, num_players).
  int black = 0;
  // Index of the player who had White, in [0, num_players), != black.
  int white = 0;
  RatedOutcome outcome = RatedOutcome::kDraw;
};

// The largest number of players ComputeRatings accepts: the fit holds three
// dense (players + 2)^2 matrices (about 100 MB at this size) and factorises
// them, O(players^3) per Newton step.
inline constexpr int kMaxRatedPlayers = 2000;

// How to rate. Plain value type; the defaults are BayesElo's `prior 2` with
// `mm 1 1` (advantage and draw_elo estimated).
struct RatingOptions {
  // Virtual draws per player (BayesElo's `prior`), in [0, 1e6]. With 0 the
  // fit is maximum likelihood, which fails (FailedPrecondition, naming the
  // players) when some players won every game against the rest of their
  // component: their ratings have no finite maximum.
  double prior_draws = 2;
  // Fixes the first-move advantage at this many Elo (|advantage| <= 10000)
  // instead of estimating it.
  std::optional<double> advantage = std::nullopt;
  // Fixes draw_elo at this many Elo (in [0, 10000]) instead of estimating
  // it. Must be > 0 when there are draws, real or virtual (else they would
  // have probability 0).
  std::optional<double> draw_elo = std::nullopt;
  // Standard deviation in Elo of the Gaussian priors (mean 0) on the
  // estimated advantage and draw_elo, in [0.001, 1e6]. Ignored for fixed
  // ones.
  double parameter_prior_sd = 400;
  // The mean rating of each component, or the anchor's rating; |offset| <=
  // 1e9.
  double offset = 0;
  // A player whose rating is fixed at `offset` (its component's ratings are
  // shifted with it and their intervals become relative to it).
  std::optional<int> anchor = std::nullopt;
  // Whether to compute the likelihood-of-superiority matrix (O(players^2)).
  bool los = false;
};

// One player's line of the ratings table. JSON-friendly: plain fields, all
// finite.
struct PlayerRating {
  // The caller's name for the player, or "" when no names were given.
  std::string name;
  // MAP rating in Elo.
  double rating = 0;
  // The 95% interval, rating -+ 1.96 sd; low == rating == high when the
  // rating is fixed (the anchor, a player alone in its component).
  double low = 0;
  double high = 0;
  // Real games played, and their results from this player's side.
  int games = 0;
  int wins = 0;
  int draws = 0;
  int losses = 0;
  // (wins + draws / 2) / games, in [0, 1]; 0 without games.
  double score = 0;
  // Mean rating of the opponents over the games played (BayesElo's "oppo");
  // 0 without games.
  double opponent_average = 0;
  // Index of the player's component, 0 for the one with the most players
  // (ties: the one holding the lowest player index), then by size. Ratings of
  // different components are not comparable.
  int component = 0;
  // False for a player without games: its rating is `offset` by convention.
  bool rated = false;
};

// The ratings of all players and the model's parameters.
struct Ratings {
  // One entry per player, in the caller's order (not sorted by rating).
  std::vector<PlayerRating> players;
  // First-move (Black's) advantage in Elo, and its 95% interval.
  double advantage = 0;
  double advantage_low = 0;
  double advantage_high = 0;
  // Whether the advantage was estimated (false: fixed by the options).
  bool advantage_estimated = false;
  // draw_elo and its 95% interval (the low end clamped at 0).
  double draw_elo = 0;
  double draw_elo_low = 0;
  double draw_elo_high = 0;
  // Whether draw_elo was estimated (false: fixed by the options, or 0
  // because there are no draws at all, real or virtual).
  bool draw_elo_estimated = false;
  // Number of connected components of the graph of games (players without
  // games count one each).
  int components = 0;
  // Newton steps taken.
  int iterations = 0;
  // Empty unless RatingOptions::los. Else players x players: los[i][j] is the
  // posterior probability that player i is stronger than player j,
  // Phi((r_i - r_j) / sd(r_i - r_j)); los[i][j] + los[j][i] == 1, and 0.5 on
  // the diagonal and between players of different components.
  std::vector<std::vector<double>> los;
};

// Rates `num_players` players from `games`. `names` is empty or holds one
// name per player (used in the result and in error messages).
//
// InvalidArgument, naming the game by its index (and players), for a player
// index out of range or a game of a player against itself; InvalidArgument
// for num_players < 1 or > kMaxRatedPlayers, `names` of the wrong size, or
// bad options. FailedPrecondition when prior_draws is 0 and the maximum does
// not exist (see RatingOptions::prior_draws). No games, one player, players
// who never met or draws only are fine.
absl::StatusOr<Ratings> ComputeRatings(
    absl::Span<const RatedGame> games, int num_players,
    const RatingOptions& options = {},
    absl::Span<const std::string> names = {});

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_RATINGS_H_

// The strength benchmark (`qipu bench strength`): G games between two
// policies A and B (policy specs, policy/spec.h, or `gtp:<command line>`
// external engines, gtp/policy_factory.h) on a size x size board under a
// rule set, colours alternating: game i has A as Black when i is even.
//
// Each game starts with NewGame() of both policies on a fresh rules::Game;
// each move is the side to move's Choose() (the policy's own budget, no
// time limit), checked by the game's rules before it is played, then
// Played() to both. A game ends
//   - by the rules: two passes (qipu counts the area, rules::Game), a
//     balanced cycle, the move cap;
//   - by resignation (MoveChoice::point == kResign);
//   - by an illegal move (occupied, suicide, superko, off the board ...):
//     the side that chose it loses ("B+Illegal"/"W+Illegal"), recorded;
//   - by an engine error (Choose() or NewGame() failing: an engine that
//     crashed, hung past its deadline, answered garbage, could not start):
//     the game is void and the error reported with it. The policy starts a
//     new engine at its next NewGame().
//
// Threads: T threads, each with its own two Policy objects (an external
// engine: one process per thread, kept across its games), made before any
// game starts (so a bad spec fails at once). Game i is played by thread
// i % T, in order; thread t's policies are seeded from `seed` and t. So
// the same options (seed and threads included) play the same games with
// qipu's own policies (external engines have their own randomness).
#ifndef QIPU_BENCH_STRENGTH_BENCH_H_
#define QIPU_BENCH_STRENGTH_BENCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "rules/result.h"
#include "rules/rules.h"

namespace qipu::bench {

// What to play. Plain value.
struct StrengthBenchOptions {
  // Policy A (Black in even games) and policy B.
  std::string policy_a = "random";
  std::string policy_b = "random";
  // Games, >= 1.
  int games = 10;
  // Board side, 2..25 (square boards).
  int size = 9;
  // The rule set (komi included); `rules_name` is what reports and SGF
  // files call it (a preset name, or "custom").
  rules::Rules rules;
  std::string rules_name = "chinese";
  // Threads playing games, >= 1 (at most `games` are used).
  int threads = 1;
  // Seeds every thread's policies.
  uint64_t seed = 1;
  // Non-empty: each game is written to sgf_dir/game-NNNN.sgf (NNNN the
  // 0-based game index, at least 4 digits); the directory is created.
  std::string sgf_dir;
  // Where external engines' stderr goes (appended); "" for /dev/null.
  std::string engine_log;
  // One line on stderr per finished game.
  bool verbose = false;
};

// How one game went. Plain value.
struct StrengthGame {
  // 0-based game index; A played Black when `a_black`.
  int index = 0;
  bool a_black = true;
  // The rules' result (winner kNone for a void game).
  rules::GameResult result;
  // The game was void through an engine error (`note` says which).
  bool engine_error = false;
  // Moves played (passes included; an illegal move is not played).
  int moves = 0;
  // What else happened, for people: "B played an illegal move: occupied
  // at C3", "W engine error: UNAVAILABLE: ...", or "".
  std::string note;
};

// Time and playouts of one side over all its moves. Plain value.
struct SideStats {
  // The policy's canonical spec.
  std::string spec;
  // Moves chosen (Choose() calls that returned a move, resignations and
  // illegal moves included).
  int64_t moves = 0;
  // Wall-clock seconds in Choose(), summed.
  double seconds = 0;
  // MoveChoice::playouts, summed.
  int64_t playouts = 0;
  // seconds / moves, playouts / moves (0 when no moves).
  double seconds_per_move = 0;
  double playouts_per_move = 0;
  // Games this side lost by resigning, by an illegal move; engine errors
  // it caused (void games).
  int resignations = 0;
  int illegal_moves = 0;
  int engine_errors = 0;
};

// A Wilson score interval.
struct Interval {
  double low = 0;
  double high = 1;
};

// The 95% Wilson score interval (z = 1.96) of a proportion measured as
// `successes` out of `n` trials (successes may be fractional: draws count
// a half). [0, 1] when n == 0. Pure.
Interval WilsonInterval(double successes, double n, double z = 1.96);

// The figures of one run, from A's side. Plain value.
struct StrengthBenchResult {
  std::string rules_name;
  rules::Rules rules;
  int size = 0;
  int threads = 0;
  uint64_t seed = 0;
  // Games played, and how they went for A: wins + losses + draws + voids
  // == games. Voids: engine errors and games the rules left without a
  // result (a no-result cycle, the move cap).
  int games = 0;
  int wins = 0;
  int losses = 0;
  int draws = 0;
  int voids = 0;
  // Games A played as Black / White, and A's wins in each.
  int a_black_games = 0;
  int a_white_games = 0;
  int a_black_wins = 0;
  int a_white_wins = 0;
  // Wins of Black (either policy), for the colour advantage.
  int black_wins = 0;
  // A's score rate over the decided games (wins + draws / 2) / (wins +
  // losses + draws), 0 when none; its 95% Wilson interval.
  double win_rate = 0;
  Interval interval;
  // Wall-clock seconds of the whole run.
  double seconds = 0;
  SideStats a;
  SideStats b;
  // Every game, by index.
  std::vector<StrengthGame> game_list;
};

// Plays the games; blocks until all are over. InvalidArgument for options
// out of range or a spec neither the policy library nor gtp/ accepts, and
// for an sgf_dir that cannot be created; Internal when an SGF file cannot
// be written. Engine failures are not errors: they void games.
absl::StatusOr<StrengthBenchResult> RunStrengthBench(
    const StrengthBenchOptions& o);

// {policy_a, policy_b, size, rules, komi, threads, seed, games, wins,
//  losses, draws, voids, win_rate, win_rate_low, win_rate_high,
//  a_black_games, a_white_games, a_black_wins, a_white_wins, black_wins,
//  seconds, a: {spec, moves, seconds_per_move, playouts_per_move,
//  resignations, illegal_moves, engine_errors}, b: {...}, games_list:
//  [{index, a_black, result, moves, note}]}, from A's side. Pure.
nlohmann::ordered_json StrengthBenchJson(const StrengthBenchResult& r);

// The figures for people: who A and B are, the score with its interval,
// per colour, each side's time and playouts per move, and the notes of
// games that were void or ended by an illegal move. Pure.
std::string StrengthBenchText(const StrengthBenchResult& r);

}  // namespace qipu::bench

#endif  // QIPU_BENCH_STRENGTH_BENCH_H_

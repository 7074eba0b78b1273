// The arena benchmark (`qipu bench arena`): what refereeing and storing
// costs per game, measured in one run against `qipu local`'s rate. Both
// play `random` against `random` on size x size under the Chinese rules
// with `threads` games at once: first a local self-play job of
// `local_games` games (embedded coordinator and worker, local/local_run.h),
// then an arena round robin of `entrants` random entrants (arena/
// arena_runner.h; n(n-1)/2 games), each in a fresh database under `dir`.
// The ratio arena / local is the arena's own overhead: per game it
// referees every move through the Policy interface, builds the SGF, and
// stores the game in three synced writes (pending game, import, result)
// where self-play batches many games into one.
#ifndef QIPU_BENCH_ARENA_BENCH_H_
#define QIPU_BENCH_ARENA_BENCH_H_

#include <string>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace qipu::bench {

// Plain value.
struct ArenaBenchOptions {
  int size = 9;
  // Entrants of the arena's round robin (>= 2).
  int entrants = 40;
  // Games of the local self-play reference (>= 1).
  int local_games = 20000;
  // Games at once (arena concurrency, local worker threads).
  int threads = 2;
  // Where the two databases go (a temporary directory when empty; removed
  // at the end either way).
  std::string dir;
};

// Plain value.
struct ArenaBenchResult {
  ArenaBenchOptions options;
  int arena_games = 0;
  double arena_seconds = 0;
  double arena_games_per_sec = 0;
  double local_games = 0;
  double local_seconds = 0;
  double local_games_per_sec = 0;
  // arena_games_per_sec / local_games_per_sec.
  double ratio = 0;
  // Wall time per arena game, microseconds (arena wall / games), and the
  // mean time a game held its thread: refereed play plus its three
  // stores.
  double arena_us_per_game = 0;
  double arena_play_us_per_game = 0;
};

// Runs both (see the file comment). InvalidArgument for bad options;
// errors of the local run and the arena otherwise.
absl::StatusOr<ArenaBenchResult> RunArenaBench(const ArenaBenchOptions& o);

// {size, entrants, threads, arena_games, arena_seconds,
//  arena_games_per_sec, local_games, local_seconds, local_games_per_sec,
//  ratio, arena_us_per_game, arena_play_us_per_game}. Pure.
nlohmann::json ArenaBenchJson(const ArenaBenchResult& r);
// The same for people. Pure.
std::string ArenaBenchText(const ArenaBenchResult& r);

}  // namespace qipu::bench

#endif  // QIPU_BENCH_ARENA_BENCH_H_

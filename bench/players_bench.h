// `qipu bench players`: the player index's queries at scale (issue 32).
//
// Builds a database of synthetic 19x19 records written straight into the
// store (each game's record and its player-index entries, as ingest
// writes them; no position or pattern index: the unfiltered queries are
// not measured here): `games` games whose players are
// drawn from a realistic distribution -- the names of the fox-pro corpus
// (when `corpus` is given) and generated names, a few prolific and a long
// tail (Zipf-like) -- plus one target player with exactly `player_games`
// games. Each game's opening is `opening_plies` random legal moves. Then
// measures, in process, p50 and p99 of: a page of the target's games
// (Games, 50 a page, with the total), the target's openings as Black at
// the empty board and after one move, and Players by a two-letter prefix.
//
// Not thread-safe; one run at a time.
#ifndef QIPU_BENCH_PLAYERS_BENCH_H_
#define QIPU_BENCH_PLAYERS_BENCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace qipu::bench {

struct PlayersBenchOptions {
  // Database directory; it must not exist yet unless `reuse` (then it is
  // queried as it is, built by an earlier run).
  std::string db;
  bool reuse = false;
  uint64_t games = 100000;
  // Games of the target player ("Bench Target").
  uint64_t player_games = 5000;
  // Moves of each synthetic game (the position index's depth, 60).
  int opening_plies = 60;
  // A folder of SGF files whose PB/PW names join the distribution.
  std::string corpus;
  // Timed repetitions of each query.
  int queries = 200;
  uint64_t seed = 1;
  bool verbose = false;
};

// One query kind's latencies.
struct PlayersBenchRow {
  std::string name;
  double p50_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
  // What one answer held (games matched, reached, players).
  uint64_t answer = 0;
};

struct PlayersBenchResult {
  uint64_t games = 0;
  uint64_t player_games = 0;
  uint64_t distinct_players = 0;
  double build_seconds = 0;
  uint64_t players_family_bytes = 0;
  std::vector<PlayersBenchRow> rows;
};

// Builds (unless reuse) and measures. InvalidArgument for bad options.
absl::StatusOr<PlayersBenchResult> RunPlayersBench(
    const PlayersBenchOptions& options);
nlohmann::json PlayersBenchJson(const PlayersBenchResult& r);
std::string PlayersBenchText(const PlayersBenchResult& r);

}  // namespace qipu::bench

#endif  // QIPU_BENCH_PLAYERS_BENCH_H_

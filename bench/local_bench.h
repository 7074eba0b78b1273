// The local benchmark (`qipu bench local`): what `qipu local` makes of the
// rules core's speed, measured in one run (this VM's speed drifts by
// 15-25% over minutes, so two separate commands compare badly).
//
//   1. Full-rules playouts on T threads for X seconds, as `qipu bench
//      playouts --mode full --threads T` measures them (playout_rate.h).
//   2. `qipu local` on the same board: an embedded coordinator over a fresh
//      RocksDB and a worker with T playing threads on the in-process gRPC
//      channel play an N-game job; games_per_sec from the worker's start to
//      the job's end, and the CPU the whole process used meanwhile
//      (getrusage: the coordinator's threads, RocksDB's, the worker's).
//   3. Where that CPU goes, one game at a time on one thread, over a sample
//      of the job's games: playing a game, replaying it (the rules check
//      alone) and everything the coordinator does to a game before storage
//      (engine::PrepareSelfPlay: checks, replay, index entries,
//      encoding). The rest of the CPU per game is storage, the position
//      index's files, transport and thread hand-offs.
#ifndef QIPU_BENCH_LOCAL_BENCH_H_
#define QIPU_BENCH_LOCAL_BENCH_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "bench/playout_rate.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/work.pb.h"

namespace qipu::bench {

// What to measure. Plain value.
struct LocalBenchOptions {
  // The job of step 2 (its games, board, rules, index depth and seed); the
  // board must be square.
  qipu::v1::SubmitJobRequest job;
  // Playing threads of the worker and of the playout measurement, >= 1.
  int threads = 2;
  // Duration of step 1, > 0.
  double playout_seconds = 3;
  // Games of the job timed one at a time in step 3 (at most the job's).
  int sample = 2000;
  // Where the database and the worker's spool go: emptied first and kept
  // afterwards. Empty: a temporary directory, removed at the end.
  std::string dir;
  // One line on stderr as each step starts.
  bool verbose = false;
};

// The figures of one run. Plain value.
struct LocalBenchResult {
  // The job's board side, playing threads and index depth.
  int size = 0;
  int threads = 0;
  uint32_t index_depth = 0;
  // Step 1: full-rules playouts.
  PlayoutRate playouts;
  // Step 2: games stored, wall-clock seconds from the worker's start to the
  // job's end, and the process's CPU seconds meanwhile.
  uint64_t games = 0;
  double seconds = 0;
  double cpu_seconds = 0;
  // games / seconds.
  double games_per_sec = 0;
  // games_per_sec / playouts.playouts_per_sec.
  double ratio = 0;
  // 1e6 * cpu_seconds / games.
  double cpu_us_per_game = 0;
  // cpu_seconds / seconds.
  double cores_busy = 0;
  // Step 3: games timed, and microseconds per game on one thread of each
  // stage.
  int sample_games = 0;
  double play_us_per_game = 0;
  double replay_us_per_game = 0;
  double prepare_us_per_game = 0;
  // cpu_us_per_game - play_us_per_game - prepare_us_per_game: storage,
  // index files, transport, threads.
  double rest_us_per_game = 0;
};

// Runs the three steps; blocks for their duration (the job is played to
// its end). InvalidArgument for a non-square board or a `dir` that cannot
// be made a directory; the errors of the coordinator and worker otherwise
// (Internal when the coordinator rejected games of the job).
absl::StatusOr<LocalBenchResult> RunLocalBench(const LocalBenchOptions& o);

// {size, threads, index_depth, games, seconds, games_per_sec,
//  full_playouts_per_sec, ratio, cpu_us_per_game, cores_busy, sample_games,
//  play_us_per_game, replay_us_per_game, prepare_us_per_game,
//  rest_us_per_game}. Pure.
nlohmann::json LocalBenchJson(const LocalBenchResult& r);

// The figures for people, one per line: the rates, their ratio, the CPU
// per game and its stages. Pure.
std::string LocalBenchText(const LocalBenchResult& r);

}  // namespace qipu::bench

#endif  // QIPU_BENCH_LOCAL_BENCH_H_

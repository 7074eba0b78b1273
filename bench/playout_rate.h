// Playout throughput of the rules core on several threads: what `qipu bench
// playouts` prints and what the local benchmark (local_bench.h) compares
// `qipu local` with.
#ifndef QIPU_BENCH_PLAYOUT_RATE_H_
#define QIPU_BENCH_PLAYOUT_RATE_H_

#include <cstdint>
#include <string>

#include "rules/rules.h"

namespace qipu::bench {

// What to measure. Plain value.
struct PlayoutRateOptions {
  // Square board side; must pass rules::ValidateSize().
  int size = 9;
  // Playing threads, >= 1.
  int threads = 1;
  // Wall-clock duration, > 0.
  double seconds = 5;
  // "light": board rules only (simple ko; rules::LightPlayout on a Board);
  // "full": the rule set's superko and cycle checks, as self-play plays
  // (rules::FullPlayout on a Game under `rules`).
  std::string mode = "light";
  rules::Rules rules;
  uint64_t seed = 1;
};

// Totals of one measurement. Plain value.
struct PlayoutRate {
  double seconds = 0;  // wall clock, threads started to joined
  uint64_t playouts = 0;
  uint64_t moves = 0;
  double playouts_per_sec = 0;
  double moves_per_sec = 0;
  double avg_moves = 0;
  // CPU time the playing threads used (their thread clocks, summed), and
  // playouts over it: the figure light-playout engines such as libego
  // print (playouts over the process's user time). It differs from
  // playouts_per_sec when other processes take the cores.
  double cpu_seconds = 0;
  double playouts_per_cpu_sec = 0;
};

// Plays light-policy playouts from the empty board on `o.threads` threads
// for `o.seconds` and counts them. Blocks for the duration; the caller
// validates the options first. Thread-safe (shares nothing).
// playouts_per_sec and moves_per_sec are the counts over `seconds`,
// playouts_per_cpu_sec the playouts over `cpu_seconds`.
PlayoutRate MeasurePlayouts(const PlayoutRateOptions& o);

}  // namespace qipu::bench

#endif  // QIPU_BENCH_PLAYOUT_RATE_H_

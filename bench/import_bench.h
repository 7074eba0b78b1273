// The import benchmark (`qipu bench import PATH...`): import throughput --
// games per second from SGF bytes in memory to durable, indexed games --
// into a fresh temporary database per loop. The files are read once before
// timing. A small corpus can be enlarged without repeating games:
// `symmetries` K imports each file under K of the 8 board symmetries (a
// text rewrite of the B, W, AB, AW and AE points of square boards), so
// every copy is a distinct game with the same parsing and replay cost;
// `loops` N repeats the whole import into N fresh databases and reports
// the total.
#ifndef QIPU_BENCH_IMPORT_BENCH_H_
#define QIPU_BENCH_IMPORT_BENCH_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/importer.h"
#include "nlohmann/json.hpp"

namespace qipu::bench {

// What to measure. Plain value.
struct ImportBenchOptions {
  // SGF files and folders (as `qipu import` takes them).
  std::vector<std::string> paths;
  // Fresh databases to import into, >= 1.
  int loops = 1;
  // Board symmetries each game is imported under, 1..8.
  int symmetries = 1;
  // The importer's parse/replay threads, >= 1.
  int threads = 2;
  // Plies indexed per game.
  int index_depth = 60;
  // fsync the WAL per batch.
  bool sync = true;
};

// The figures of one run. Plain value.
struct ImportBenchResult {
  // Files found under the paths.
  size_t files = 0;
  // The options the run used.
  int symmetries = 0;
  int loops = 0;
  int threads = 0;
  int index_depth = 0;
  // Every loop's outcomes added up; seconds is the time of the imports
  // alone (from the first file handed over to the last one done), summed
  // over the loops.
  engine::ImportSummary total;
  // total.games / total.seconds (0 when nothing was timed).
  double games_per_sec = 0;
};

// Reads the files, then imports them `loops` times, each time into a
// fresh temporary database. InvalidArgument when the paths hold no SGF
// file; Unavailable when a temporary database cannot be made; the store's
// errors otherwise. Files that cannot be read are skipped; rejected games are
// counted, not errors.
absl::StatusOr<ImportBenchResult> RunImportBench(const ImportBenchOptions& o);

// The board side of an SGF text (its first SZ[n], else 19); 0 when the
// value is not a number (a rectangular board). Pure.
int SgfSquareSize(const std::string& sgf);

// `sgf` with every point of its B, W, AB, AW and AE values (and both
// corners of compressed point lists) mapped by symmetry `t` of an n x n
// board (bit 2: transpose, bit 0: mirror x, bit 1: mirror y). Passes (""
// and "tt") and every other property are left alone. Pure.
std::string SgfUnderSymmetry(const std::string& sgf, int t, int n);

// {files, symmetries, loops, threads, index_depth, games, imported,
//  duplicates, rejected, seconds, games_per_sec}, in that order. Pure.
nlohmann::ordered_json ImportBenchJson(const ImportBenchResult& r);

// The figures for people: the run, the games and their fate, the seconds
// and the rate. Pure.
std::string ImportBenchText(const ImportBenchResult& r);

}  // namespace qipu::bench

#endif  // QIPU_BENCH_IMPORT_BENCH_H_

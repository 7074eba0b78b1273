// The query benchmark (`qipu bench query`): latency and throughput of
// openings queries over loopback gRPC, against a running coordinator
// (`server`), a coordinator started here on a database (`db`), or one on a
// database of `games` self-play games built first (in `db`, or in a
// temporary directory removed afterwards).
//
// Building plays the games of one job with the rules core and feeds them
// through the real ingest path (JobManager job, PrepareSelfPlay
// validation, the Ingestor's group commit) of an in-process Coordinator.
// Query positions are sampled from the first `plies` plies of the stored
// games: a random walk from the empty board that follows each continuation
// with probability games(continuation) / games(position) -- the
// distribution of a random stored game's prefix -- stopping at a uniformly
// drawn ply. Then `threads` client threads (one channel and completion
// queue each, the async API) keep `inflight` Openings calls in flight for
// `seconds`, after a short warm-up; each call's latency is measured at the
// client, from start to completion (queueing included). `compact` first
// compacts the position index fully (a database at rest).
#ifndef QIPU_BENCH_QUERY_BENCH_H_
#define QIPU_BENCH_QUERY_BENCH_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "base/channel.h"
#include "nlohmann/json.hpp"
#include "rules/rules.h"

namespace qipu::bench {

// What to measure. Plain value.
struct QueryBenchOptions {
  // A running coordinator, HOST:PORT; exclusive with `db` and `games`.
  std::string server;
  // TLS and token of the calls to `server` (the harness sets the rest).
  base::ChannelOptions channel;
  // A database directory a coordinator is started on here; with `games`
  // it must be empty or missing.
  std::string db;
  // > 0: build a fresh database of this many self-play games first.
  uint64_t games = 0;
  // Board side of the built games and of the queried positions.
  int size = 9;
  // Index depth (plies) and rules of the built games.
  int depth = 30;
  rules::Rules rules;
  // Threads playing games while building; 0: one per core.
  int build_threads = 0;
  // Compact the position index fully before measuring (not with `server`).
  bool compact = false;
  // Measuring time, > 0.
  double seconds = 10;
  // Client threads, one channel each, >= 1.
  int threads = 2;
  // Calls each client thread keeps in flight, >= 1.
  int inflight = 4;
  // Positions come from plies 0..plies of stored games.
  int plies = 10;
  // Distinct positions queried, >= 1.
  int samples = 2000;
  // Seed of the built games and of the sampling.
  uint64_t seed = 1;
  // A progress bar on stderr while building (when it is a terminal).
  bool verbose = false;
};

// What building the database took. Plain value.
struct QueryBuildReport {
  uint64_t games = 0;
  double seconds = 0;
  // Bytes of SST files of every column family after the build.
  uint64_t sst_bytes = 0;
  // Index depth of the built games.
  int index_depth = 0;
};

// The figures of one run. Plain value.
struct QueryBenchResult {
  // The coordinator queried.
  std::string address;
  // Board side; client threads; calls in flight per thread.
  int size = 0;
  int threads = 0;
  int inflight = 0;
  // Set when the run built its database / compacted the position index
  // (seconds it took).
  std::optional<QueryBuildReport> build;
  std::optional<double> compact_seconds;
  // Positions sampled and their mean depth in plies.
  size_t positions = 0;
  double mean_plies = 0;
  // Calls completed without error during the measuring time, and those
  // that failed (the first failure's message).
  uint64_t queries = 0;
  uint64_t errors = 0;
  std::string first_error;
  // The measuring time, seconds; queries / seconds.
  double seconds = 0;
  double qps = 0;
  // Latency percentiles and maximum of the successful calls, ms.
  double p50_ms = 0;
  double p90_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
};

// Builds (when asked), compacts (when asked), samples positions and
// measures; blocks for the duration. InvalidArgument (naming the flags of
// `qipu bench query`) when neither or both of `server` and `db`/`games`
// are given, or `games` is given with a non-empty `db`; FailedPrecondition when
// the database holds no games of the size; the coordinator's, the build's and
// the calls' errors otherwise. Failed calls while measuring are counted in the
// result, not returned.
absl::StatusOr<QueryBenchResult> RunQueryBench(const QueryBenchOptions& o);

// {queries, errors, seconds, qps, p50_ms, p90_ms, p99_ms, max_ms, threads,
//  inflight, positions, mean_plies, size}, plus build {games, seconds,
//  games_per_sec, sst_bytes, index_depth} and compact_seconds when the run
//  built or compacted. Pure.
nlohmann::json QueryBenchJson(const QueryBenchResult& r);

// The figures for people: the build and compaction when done, the run,
// the rate, the percentiles and the errors. Pure.
std::string QueryBenchText(const QueryBenchResult& r);

}  // namespace qipu::bench

#endif  // QIPU_BENCH_QUERY_BENCH_H_

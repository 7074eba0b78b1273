// The ingest benchmark (`qipu bench ingest`): ingest throughput of the
// coordinator. Pre-generates N self-play games of one job (not timed),
// then streams them over loopback gRPC (K upload streams, B games to a
// message) into a fresh database and times until every game is
// acknowledged as durable: games_per_sec, positions_per_sec. In the same
// run it writes the same keys -- each game's record, its position-index
// merge operands and its aggregate operand -- directly with RocksDB
// WriteBatches (same options, same group size, fsync per batch) into a
// second fresh database: raw_rocksdb_games_per_sec, and the ratio. With
// TLS and/or tokens (tls_dir, auth) the gRPC path pays what a secured
// fleet pays: the overhead against a plain run of the same games.
#ifndef QIPU_BENCH_INGEST_BENCH_H_
#define QIPU_BENCH_INGEST_BENCH_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/work.pb.h"

namespace qipu::bench {

// What to measure. Plain value.
struct IngestBenchOptions {
  // The job whose games are generated and ingested.
  qipu::v1::SubmitJobRequest job;
  // Concurrent upload streams, >= 1.
  int streams = 2;
  // Games per WriteBatch, both paths (the coordinator's ingest max_batch),
  // >= 1.
  int batch = 1024;
  // Games per upload message (GameUpload.batch); 1 sends the single form.
  int upload_batch = 64;
  // Where the two databases go (grpc/ and raw/): emptied first and kept
  // afterwards. Empty: a temporary directory, removed at the end.
  std::string dir;
  // TLS on the coordinator's port and the streams: a directory as
  // ops/tls/make-certs writes it (ca.pem, server.pem, server.key); empty =
  // plain text.
  std::string tls_dir;
  // The coordinator requires tokens (--auth required) and every stream
  // sends a worker token made for the run.
  bool auth = false;
  // One line on stderr as each step starts.
  bool verbose = false;
};

// The figures of one run. Plain value.
struct IngestBenchResult {
  // Games generated; board; index depth; streams and games per message.
  uint64_t games = 0;
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t index_depth = 0;
  int streams = 0;
  int upload_batch = 0;
  // Whether the gRPC path ran over TLS and with tokens.
  bool tls = false;
  bool auth = false;
  // gRPC path: games acknowledged as stored (== games), wall-clock
  // seconds from the first upload to the last acknowledgement, and the
  // position-index entries the ingestor wrote meanwhile.
  uint64_t acked = 0;
  double seconds = 0;
  uint64_t positions = 0;
  // games / seconds and positions / seconds.
  double games_per_sec = 0;
  double positions_per_sec = 0;
  // Raw path: the seconds writing every game took.
  double raw_seconds = 0;
  // games / raw_seconds.
  double raw_games_per_sec = 0;
  // games_per_sec / raw_games_per_sec.
  double ratio = 0;
};

// Generates the job's games on all cores, ingests them over gRPC, then
// writes the same keys with WriteBatches. Blocks until done.
// InvalidArgument for a `dir` that cannot be made a directory; Internal
// when an upload is refused or not every game is acknowledged; the
// coordinator's and the store's errors otherwise.
absl::StatusOr<IngestBenchResult> RunIngestBench(const IngestBenchOptions& o);

// {games, size, index_depth, streams, upload_batch, tls, auth, seconds,
//  games_per_sec, positions_per_sec, raw_rocksdb_seconds,
//  raw_rocksdb_games_per_sec, ratio}. Pure.
nlohmann::json IngestBenchJson(const IngestBenchResult& r);

// The figures for people: the run, the two rates and their ratio. Pure.
std::string IngestBenchText(const IngestBenchResult& r);

}  // namespace qipu::bench

#endif  // QIPU_BENCH_INGEST_BENCH_H_

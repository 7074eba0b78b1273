// The training-rows benchmark (`qipu bench train`): how fast rows come out
// of a database of self-play games (built first when asked, by a local
// self-play run), measured three ways in one run:
//  - the server alone: rows a train::RowStream builds per second in this
//    process (replay, planes, targets, mixing, batching), without and with
//    the TrainingBatch encoding -- the ceiling of the service;
//  - a C++ client pulling TrainingService batches from a coordinator
//    started here on 127.0.0.1 (loopback gRPC);
//  - a Python client (python, numpy arrays) pulling from the same
//    coordinator, when a Python interpreter and the client are given.
// Each measurement runs for `seconds`, starting the selection over when it
// ends (another seed, so the rows differ). Sizes: bytes per row in memory
// (the raw arrays) and, with `export_rows`, deflated in .npz files.
#ifndef QIPU_BENCH_TRAIN_BENCH_H_
#define QIPU_BENCH_TRAIN_BENCH_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/train.pb.h"

namespace qipu::bench {

// What to measure. Plain value.
struct TrainBenchOptions {
  // Database directory; with `games` it must be empty or missing (a temp
  // dir, removed afterwards, when db is empty).
  std::string db;
  // > 0: play this many self-play games of `size` into the database first.
  uint64_t games = 0;
  int size = 19;
  // The rows (batch_size, pos_len, symmetries, shuffle_window ...).
  qipu::v1::TrainingRequest request;
  // Seconds per measurement, > 0.
  double seconds = 5;
  // Python client: the interpreter, the pull script
  // (python/bench_pull.py) and the folder holding qipu_client (the
  // build's python/ folder); an empty python skips that measurement.
  std::string python;
  std::string python_script;
  std::string python_path;
  // Rows written to .npz (deflate) for the bytes-per-row figure; 0 skips.
  uint64_t export_rows = 20000;
};

// One rate. Plain value.
struct RowRate {
  uint64_t rows = 0;
  double seconds = 0;
  double rows_per_sec() const { return seconds > 0 ? rows / seconds : 0; }
};

// The figures of one run. Plain value.
struct TrainBenchResult {
  uint64_t games = 0;
  int pos_len = 19;
  // Bytes of one row's arrays.
  int row_bytes = 0;
  // Games played and the seconds building took (0 without `games`).
  double build_seconds = 0;
  RowRate server_rows;
  RowRate server_encoded;
  RowRate grpc_cpp;
  std::optional<RowRate> grpc_python;
  // Deflated .npz bytes per row (nullopt when not measured).
  std::optional<double> npz_bytes_per_row;
};

// Runs the benchmark. InvalidArgument for bad options or a bad request;
// errors of the build, the store and the servers otherwise.
absl::StatusOr<TrainBenchResult> RunTrainBench(const TrainBenchOptions& o);

nlohmann::ordered_json TrainBenchJson(const TrainBenchResult& r);
std::string TrainBenchText(const TrainBenchResult& r);

}  // namespace qipu::bench

#endif  // QIPU_BENCH_TRAIN_BENCH_H_

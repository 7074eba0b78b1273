// The training-rows benchmark run small: 40 self-play 9x9 games built by a
// local run into a temp dir, each measurement a fraction of a second. Its
// figures hang together (every rate positive, the encoded pass no faster
// than a pass that also encodes could be by much, the row size of the
// layout) and its renderings have the fields and lines `qipu bench train`
// prints. Without --python the Python measurement is absent.
#include "bench/train_bench.h"

#include "gtest/gtest.h"
#include "tests/bench/bench_test_util.h"
#include "train/row_layout.h"

namespace qipu::bench {
namespace {

TEST(TrainBench, BuildsAndMeasuresEveryPath) {
  TrainBenchOptions o;
  o.games = 40;
  o.size = 9;
  o.seconds = 0.3;
  o.export_rows = 500;
  o.request.set_pos_len(9);
  o.request.set_symmetries(8);
  o.request.set_batch_size(64);
  o.request.set_shuffle_window(256);
  absl::StatusOr<TrainBenchResult> r = RunTrainBench(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->build_seconds, 0);
  EXPECT_EQ(r->pos_len, 9);
  EXPECT_EQ(r->row_bytes, train::RowShape{9}.row_bytes());
  for (const RowRate* rate :
       {&r->server_rows, &r->server_encoded, &r->grpc_cpp}) {
    EXPECT_GT(rate->rows, 0u);
    EXPECT_GE(rate->seconds, 0.3);
    EXPECT_GT(rate->rows_per_sec(), 0);
  }
  EXPECT_FALSE(r->grpc_python.has_value());
  ASSERT_TRUE(r->npz_bytes_per_row.has_value());
  EXPECT_GT(*r->npz_bytes_per_row, 0);
  EXPECT_LT(*r->npz_bytes_per_row, r->row_bytes);

  EXPECT_EQ(test_util::Keys(TrainBenchJson(*r)),
            (std::vector<std::string>{
                "pos_len", "row_bytes", "build_seconds", "server_rows_per_sec",
                "server_encoded_rows_per_sec", "grpc_cpp_rows_per_sec",
                "npz_deflate_bytes_per_row"}));
  EXPECT_EQ(test_util::Lines(TrainBenchText(*r)).size(), 5u);
}

TEST(TrainBench, RefusesAMissingDatabaseAndAnEmptySelection) {
  TrainBenchOptions o;
  EXPECT_TRUE(absl::IsInvalidArgument(RunTrainBench(o).status()));
  o.games = 5;
  o.size = 9;
  o.seconds = 0.1;
  o.request.set_batch_size(16);
  o.request.mutable_filter()->set_source("job:424242");
  const absl::Status s = RunTrainBench(o).status();
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
}

}  // namespace
}  // namespace qipu::bench

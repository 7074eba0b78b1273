// RunIngestBench() (bench/ingest_bench.h): 300 games of a 9x9 job over two
// upload streams, 16 games to a message, 64 to a WriteBatch. Every game is
// acknowledged, the gRPC and the raw RocksDB databases hold the same game
// keys, the rates are the counts over the measured times, and the
// renderings carry the fields and lines `qipu bench ingest` prints.
#include "bench/ingest_bench.h"

#include <memory>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "store/store.h"
#include "tests/bench/bench_test_util.h"
#include "tests/common/job_config.h"
#include "tests/common/temp_dir.h"
#include "tests/common/test_certs.h"

namespace qipu::bench {
namespace {

using ::qipu::test_util::Keys;
using ::qipu::test_util::Lines;

// The keys of the games column family of the database in `dir`.
std::set<std::string> GameKeys(const std::string& dir) {
  std::set<std::string> out;
  auto store = store::Store::Open(dir, store::StoreOptions{});
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return out;
  store::Cursor it = (*store)->Scan(store::Records::kGames);
  for (it.SeekToFirst(); it.Valid(); it.Next())
    out.insert(std::string(it.key()));
  EXPECT_TRUE(it.status().ok()) << it.status();
  return out;
}

TEST(IngestBench, BothPathsStoreEveryGameAndTheRatesAddUp) {
  test_util::TempDir tmp("ingest-bench");
  IngestBenchOptions o;
  o.job.set_games(300);
  *o.job.mutable_config() =
      test_util::SelfPlayConfig(9, /*seed=*/3, /*depth=*/20);
  o.streams = 2;
  o.batch = 64;
  o.upload_batch = 16;
  o.dir = tmp.Sub("kept");
  auto r = RunIngestBench(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->games, 300u);
  EXPECT_EQ(r->acked, 300u);
  EXPECT_EQ(r->width, 9u);
  EXPECT_EQ(r->height, 9u);
  EXPECT_EQ(r->index_depth, 20u);
  EXPECT_EQ(r->streams, 2);
  EXPECT_EQ(r->upload_batch, 16);
  // Every game indexes its first plies (up to 20 of each).
  EXPECT_GT(r->positions, 300u);
  EXPECT_LE(r->positions, 300u * 21);
  EXPECT_GT(r->seconds, 0);
  EXPECT_GT(r->raw_seconds, 0);
  EXPECT_DOUBLE_EQ(r->games_per_sec, r->games / r->seconds);
  EXPECT_DOUBLE_EQ(r->positions_per_sec, r->positions / r->seconds);
  EXPECT_DOUBLE_EQ(r->raw_games_per_sec, r->games / r->raw_seconds);
  EXPECT_DOUBLE_EQ(r->ratio, r->games_per_sec / r->raw_games_per_sec);

  // The two paths wrote the same games.
  const std::set<std::string> grpc = GameKeys(o.dir + "/grpc");
  const std::set<std::string> raw = GameKeys(o.dir + "/raw");
  EXPECT_EQ(grpc.size(), 300u);
  EXPECT_EQ(grpc, raw);
}

TEST(IngestBench, RenderingsHaveTheDocumentedFieldsAndLines) {
  IngestBenchResult r;
  r.games = 300;
  r.width = r.height = 9;
  r.index_depth = 20;
  r.streams = 2;
  r.upload_batch = 16;
  r.acked = 300;
  r.seconds = 0.5;
  r.positions = 6000;
  r.games_per_sec = 600;
  r.positions_per_sec = 12000;
  r.raw_seconds = 0.25;
  r.raw_games_per_sec = 1200;
  r.ratio = 0.5;
  const nlohmann::json j = IngestBenchJson(r);
  EXPECT_EQ(Keys(j), (std::vector<std::string>{
                         "auth", "games", "games_per_sec", "index_depth",
                         "positions_per_sec", "ratio",
                         "raw_rocksdb_games_per_sec", "raw_rocksdb_seconds",
                         "seconds", "size", "streams", "tls", "upload_batch"}));
  EXPECT_EQ(j["size"], 9);
  EXPECT_EQ(j["raw_rocksdb_seconds"], 0.25);
  EXPECT_EQ(Lines(IngestBenchText(r)),
            (std::vector<std::string>{
                "300 9x9 games, index depth 20, 2 streams",
                "  gRPC ingest          600 games/s       12000 positions/s",
                "  raw RocksDB         1200 games/s (same keys, WriteBatch)",
                "  ratio               0.50"}));
}

TEST(IngestBench, OverTlsWithTokens) {
  test_util::TempDir tmp("ingest-bench-tls");
  test_util::TestCerts::Make(tmp.Sub("certs"), {});
  IngestBenchOptions o;
  o.job.set_games(100);
  *o.job.mutable_config() = test_util::SelfPlayConfig(9, /*seed=*/4);
  o.streams = 2;
  o.upload_batch = 8;
  o.tls_dir = tmp.Sub("certs");
  o.auth = true;
  auto r = RunIngestBench(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->acked, 100u);
  EXPECT_TRUE(r->tls);
  EXPECT_TRUE(r->auth);
  EXPECT_EQ(IngestBenchJson(*r)["tls"], true);
  EXPECT_NE(IngestBenchText(*r).find(", TLS, tokens"), std::string::npos);
  // Certificates that are not there are named.
  o.tls_dir = tmp.Sub("nowhere");
  EXPECT_EQ(RunIngestBench(o).status().code(), absl::StatusCode::kNotFound);
}

TEST(IngestBench, ABlockedDirIsRefused) {
  test_util::TempDir tmp("ingest-bench-blocked");
  const std::string file = tmp.Sub("a-file");
  std::FILE* f = std::fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  IngestBenchOptions o;
  o.job.set_games(10);
  *o.job.mutable_config() = test_util::SelfPlayConfig(9, /*seed=*/3);
  o.dir = file + "/sub";
  auto r = RunIngestBench(o);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument)
      << r.status();
}

}  // namespace
}  // namespace qipu::bench

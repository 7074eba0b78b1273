// Process tests of `qipu bench playouts|query|import|ingest`: a short run
// of each prints one JSON object whose fields are all there and hang
// together -- counts of what was asked for, rates that are counts over the
// time taken, ordered percentiles, nothing refused -- and a bad flag is
// refused naming it. (`qipu bench local`: bench_local_test.cc.) The runs
// are small: they check the harnesses, not the machine's speed.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

// `qipu bench <args> --json`: its one JSON object (exit status 0).
nlohmann::json Bench(const TempDir& tmp, const std::string& name,
                     std::vector<std::string> args) {
  args.insert(args.begin(), "bench");
  args.push_back("--json");
  const Ran r = RunQipu(tmp.path(), name, args, absl::Seconds(300));
  EXPECT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = LastJsonLine(r.out);
  EXPECT_TRUE(j.is_object()) << r.out << r.err;
  return j.is_object() ? j : nlohmann::json::object();
}

double Num(const nlohmann::json& j, const std::string& key) {
  EXPECT_TRUE(j.contains(key) && j[key].is_number())
      << key << " in " << j.dump();
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : -1;
}

TEST(OpsBench, PlayoutsCountsRatesAndMoves) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  for (const std::string mode : {"light", "full"}) {
    SCOPED_TRACE(mode);
    const nlohmann::json j =
        Bench(tmp, "playouts-" + mode,
              {"playouts", "--size", "9", "--threads", "2", "--seconds", "0.3",
               "--mode", mode, "--rules", "chinese"});
    EXPECT_EQ(j.value("size", 0), 9);
    EXPECT_EQ(j.value("threads", 0), 2);
    EXPECT_EQ(j.value("mode", ""), mode);
    EXPECT_EQ(j.value("rules", ""), "chinese");
    const double seconds = Num(j, "seconds");
    const double playouts = Num(j, "playouts");
    EXPECT_GE(seconds, 0.3);
    EXPECT_GT(playouts, 0);
    EXPECT_NEAR(Num(j, "playouts_per_sec"), playouts / seconds,
                1e-6 * playouts / seconds);
    // 9x9 random playouts run to a filled board: between one and a few
    // hundred moves each on average.
    const double avg = Num(j, "avg_moves");
    EXPECT_GT(avg, 40);
    EXPECT_LT(avg, 400);
    EXPECT_NEAR(Num(j, "moves_per_sec"), avg * Num(j, "playouts_per_sec"),
                1e-6 * Num(j, "moves_per_sec"));
    // The libego-style figure: playouts over the playing threads' CPU time.
    const double cpu = Num(j, "cpu_seconds");
    EXPECT_GT(cpu, 0);
    EXPECT_NEAR(Num(j, "playouts_per_cpu_sec"), playouts / cpu,
                1e-6 * playouts / cpu);
  }
  const Ran bad = RunQipu(tmp.path(), "playouts-bad",
                          {"bench", "playouts", "--size", "40"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--size"), std::string::npos) << bad.err;
}

TEST(OpsBench, QueryBuildsADatabaseAndAnswersEveryQuery) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const nlohmann::json j =
      Bench(tmp, "query",
            {"query", "--games", "200", "--size", "9", "--depth", "12",
             "--seconds", "0.3", "--threads", "1", "--inflight", "2",
             "--samples", "50", "--plies", "6", "--seed", "3"});
  const double queries = Num(j, "queries");
  EXPECT_GT(queries, 0);
  EXPECT_EQ(j.value("errors", uint64_t{1}), 0u) << j.dump();
  EXPECT_NEAR(Num(j, "qps"), queries / Num(j, "seconds"), 1e-6 * Num(j, "qps"));
  EXPECT_LE(Num(j, "p50_ms"), Num(j, "p90_ms"));
  EXPECT_LE(Num(j, "p90_ms"), Num(j, "p99_ms"));
  EXPECT_LE(Num(j, "p99_ms"), Num(j, "max_ms"));
  EXPECT_GT(Num(j, "p50_ms"), 0);
  EXPECT_EQ(j.value("threads", 0), 1);
  EXPECT_EQ(j.value("inflight", 0), 2);
  EXPECT_EQ(j.value("size", 0), 9);
  EXPECT_GT(Num(j, "positions"), 0);
  EXPECT_LE(Num(j, "positions"), 50);
  EXPECT_LE(Num(j, "mean_plies"), 6);
  ASSERT_TRUE(j.contains("build")) << j.dump();
  EXPECT_EQ(j["build"].value("games", uint64_t{0}), 200u);
  EXPECT_EQ(j["build"].value("index_depth", 0), 12);
  EXPECT_GT(Num(j["build"], "games_per_sec"), 0);
  const Ran bad =
      RunQipu(tmp.path(), "query-bad",
              {"bench", "query", "--games", "10", "--threads", "0"});
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("--threads"), std::string::npos) << bad.err;
}

TEST(OpsBench, ImportCountsEveryGameOfEveryLoopAndSymmetry) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  // Ten distinct 9x9 games as SGF files.
  const std::string sgf = tmp.Sub("sgf");
  const Ran selfplay = RunQipu(tmp.path(), "selfplay",
                               {"selfplay", "--games", "10", "--size", "9",
                                "--seed", "8", "--out", sgf});
  ASSERT_EQ(selfplay.status, 0) << selfplay.err;
  const nlohmann::json j = Bench(tmp, "import",
                                 {"import", sgf, "--loops", "2", "--symmetries",
                                  "3", "--threads", "2", "--no-sync"});
  EXPECT_EQ(j.value("files", 0), 10);
  EXPECT_EQ(j.value("loops", 0), 2);
  EXPECT_EQ(j.value("symmetries", 0), 3);
  // Each loop imports every file under 3 symmetries into a fresh
  // database: 10 x 3 distinct games each time.
  EXPECT_EQ(j.value("games", uint64_t{0}), 60u) << j.dump();
  EXPECT_EQ(j.value("imported", uint64_t{0}), 60u) << j.dump();
  EXPECT_EQ(j.value("duplicates", uint64_t{1}), 0u);
  EXPECT_EQ(j.value("rejected", uint64_t{1}), 0u);
  EXPECT_NEAR(Num(j, "games_per_sec"), 60 / Num(j, "seconds"),
              1e-6 * Num(j, "games_per_sec"));
  const Ran none = RunQipu(tmp.path(), "import-none",
                           {"bench", "import", tmp.Sub("nothing-here")});
  EXPECT_EQ(none.status, 1);
  EXPECT_NE(none.err.find("no SGF files found"), std::string::npos) << none.err;
}

TEST(OpsBench, IngestStoresEveryGameBothWays) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const nlohmann::json j =
      Bench(tmp, "ingest",
            {"ingest", "--games", "300", "--size", "9", "--seed", "5",
             "--streams", "2", "--upload-batch", "16", "--batch", "64"});
  EXPECT_EQ(j.value("games", uint64_t{0}), 300u) << j.dump();
  EXPECT_EQ(j.value("size", 0), 9);
  EXPECT_EQ(j.value("streams", 0), 2);
  EXPECT_EQ(j.value("upload_batch", 0), 16);
  const double gps = Num(j, "games_per_sec");
  const double raw = Num(j, "raw_rocksdb_games_per_sec");
  EXPECT_NEAR(gps, 300 / Num(j, "seconds"), 1e-6 * gps);
  EXPECT_NEAR(raw, 300 / Num(j, "raw_rocksdb_seconds"), 1e-6 * raw);
  EXPECT_NEAR(Num(j, "ratio"), gps / raw, 1e-9 * gps / raw);
  // Every game indexes at least its first position.
  EXPECT_GE(Num(j, "positions_per_sec"), gps);
  const Ran bad =
      RunQipu(tmp.path(), "ingest-bad",
              {"bench", "ingest", "--games", "10", "--streams", "0"});
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("--streams"), std::string::npos) << bad.err;
  // The bench generates random-policy games: another policy is refused up
  // front (it used to fail at the end with every game rejected).
  const Ran policy =
      RunQipu(tmp.path(), "ingest-policy",
              {"bench", "ingest", "--games", "10", "--policy", "pattern"});
  EXPECT_EQ(policy.status, 1);
  EXPECT_NE(policy.err.find("only 'random'"), std::string::npos) << policy.err;
}

}  // namespace
}  // namespace qipu::testing

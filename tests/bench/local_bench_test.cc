// RunLocalBench() (bench/local_bench.h): a 200-game job on 9x9 with two
// threads. Every game of the job is stored and counted, the rates are the
// counts over the measured times, the ratio and the rest of the CPU per
// game are what they claim, the database is kept under `dir` when one is
// given, and the renderings carry the fields and lines `qipu bench local`
// prints.
#include "bench/local_bench.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "store/store.h"
#include "tests/bench/bench_test_util.h"
#include "tests/common/job_config.h"
#include "tests/common/temp_dir.h"

namespace qipu::bench {
namespace {

using ::qipu::test_util::Keys;
using ::qipu::test_util::Lines;

LocalBenchOptions SmallRun(uint64_t games) {
  LocalBenchOptions o;
  o.job.set_games(games);
  *o.job.mutable_config() =
      test_util::SelfPlayConfig(9, /*seed=*/7, /*depth=*/30);
  o.threads = 2;
  o.playout_seconds = 0.1;
  o.sample = 40;
  return o;
}

TEST(LocalBench, FiguresHangTogetherAndTheDatabaseIsKeptUnderDir) {
  test_util::TempDir tmp("local-bench");
  LocalBenchOptions o = SmallRun(200);
  o.dir = tmp.Sub("kept");
  auto r = RunLocalBench(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->size, 9);
  EXPECT_EQ(r->threads, 2);
  EXPECT_EQ(r->index_depth, 30u);
  EXPECT_EQ(r->games, 200u);
  EXPECT_EQ(r->sample_games, 40);

  EXPECT_GT(r->playouts.playouts, 0u);
  EXPECT_GE(r->playouts.seconds, 0.1);
  EXPECT_DOUBLE_EQ(r->playouts.playouts_per_sec,
                   r->playouts.playouts / r->playouts.seconds);
  EXPECT_GT(r->seconds, 0);
  EXPECT_DOUBLE_EQ(r->games_per_sec, r->games / r->seconds);
  EXPECT_DOUBLE_EQ(r->ratio, r->games_per_sec / r->playouts.playouts_per_sec);
  EXPECT_GT(r->cpu_seconds, 0);
  EXPECT_DOUBLE_EQ(r->cpu_us_per_game, 1e6 * r->cpu_seconds / r->games);
  EXPECT_DOUBLE_EQ(r->cores_busy, r->cpu_seconds / r->seconds);
  // Each stage takes time (how they compare is left to the clock: one
  // preemption on a loaded machine can swamp 40 games' worth of either).
  EXPECT_GT(r->play_us_per_game, 0);
  EXPECT_GT(r->replay_us_per_game, 0);
  EXPECT_GT(r->prepare_us_per_game, 0);
  EXPECT_DOUBLE_EQ(
      r->rest_us_per_game,
      r->cpu_us_per_game - r->play_us_per_game - r->prepare_us_per_game);

  // The kept database holds the job's games.
  auto store = store::Store::Open(o.dir + "/db", store::StoreOptions{});
  ASSERT_TRUE(store.ok()) << store.status();
  uint64_t stored = 0;
  store::Cursor it = (*store)->Scan(store::Records::kGames);
  for (it.SeekToFirst(); it.Valid(); it.Next()) ++stored;
  EXPECT_EQ(stored, 200u);
}

TEST(LocalBench, RenderingsHaveTheDocumentedFieldsAndLines) {
  LocalBenchResult r;
  r.size = 9;
  r.threads = 2;
  r.index_depth = 30;
  r.playouts.playouts_per_sec = 50000;
  r.games = 300;
  r.seconds = 0.25;
  r.games_per_sec = 1200;
  r.ratio = 0.024;
  r.cpu_us_per_game = 100;
  r.cores_busy = 1.5;
  r.sample_games = 40;
  r.play_us_per_game = 10;
  r.replay_us_per_game = 5;
  r.prepare_us_per_game = 12;
  r.rest_us_per_game = 78;
  const nlohmann::json j = LocalBenchJson(r);
  EXPECT_EQ(
      Keys(j),
      (std::vector<std::string>{
          "cores_busy", "cpu_us_per_game", "full_playouts_per_sec", "games",
          "games_per_sec", "index_depth", "play_us_per_game",
          "prepare_us_per_game", "ratio", "replay_us_per_game",
          "rest_us_per_game", "sample_games", "seconds", "size", "threads"}));
  EXPECT_EQ(j["games"], 300);
  EXPECT_EQ(j["full_playouts_per_sec"], 50000.0);
  EXPECT_EQ(j["rest_us_per_game"], 78.0);
  EXPECT_EQ(Lines(LocalBenchText(r)),
            (std::vector<std::string>{
                "9x9, 2 threads, index depth 30",
                "  full playouts           50000 /s",
                "  qipu local               1200 games/s (300 games in 0.25 s)",
                "  ratio                   0.024",
                "  CPU per game            100.0 us (1.50 cores busy)",
                "    play                   10.0 us",
                "    coordinator            12.0 us before storage (replay "
                "alone 5.0 us)",
                "    rest                   78.0 us (storage, index files, "
                "transport, threads)"}));
}

TEST(LocalBench, RefusesRectangularBoardsAndABlockedDir) {
  LocalBenchOptions o = SmallRun(10);
  o.job.mutable_config()->set_height(7);
  auto rect = RunLocalBench(o);
  EXPECT_EQ(rect.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(rect.status().message(), "square"))
      << rect.status();

  test_util::TempDir tmp("local-bench-blocked");
  const std::string file = tmp.Sub("a-file");
  std::FILE* f = std::fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  o = SmallRun(10);
  o.dir = file + "/sub";
  auto blocked = RunLocalBench(o);
  EXPECT_EQ(blocked.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(blocked.status().message(), "--dir " + o.dir))
      << blocked.status();
}

}  // namespace
}  // namespace qipu::bench

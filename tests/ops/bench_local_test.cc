// Process test: `qipu bench local`, the one-run comparison of `qipu local`
// with full-rules playouts on as many threads. A small run prints one JSON
// object whose figures hang together (the ratio is the quotient of the two
// rates, the job's games are all stored, the stage costs are positive and
// the replay is part of the coordinator's work), keeps its database under
// --dir when asked (the stored games are the job's), removes its temporary
// directory otherwise, and bad flags are refused with a message.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/temp_dir.h"
#include "tests/ops/process_fixture.h"
#include "tests/ops/subprocess.h"

namespace qipu::testing {
namespace {

struct BenchRun {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs `qipu bench local` with `args` to its end (stdout and stderr in
// dir/<name>.out and .err).
BenchRun BenchLocal(const std::string& dir, const std::string& name,
                    const std::vector<std::string>& args) {
  std::vector<std::string> argv = {kQipuBinary, "bench", "local"};
  argv.insert(argv.end(), args.begin(), args.end());
  BenchRun r;
  auto p = Subprocess::Start(argv, dir + "/" + name + ".out",
                             dir + "/" + name + ".err");
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return r;
  const std::optional<int> status = (*p)->Wait(absl::Seconds(120) * kSlowdown);
  EXPECT_TRUE(status.has_value()) << "qipu bench local did not end";
  r.status = status.value_or(-1);
  r.out = (*p)->Stdout();
  r.err = (*p)->Stderr();
  return r;
}

// Temporary directories `qipu bench local` made and left behind.
std::vector<std::string> LeftoverTempDirs() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(
           std::filesystem::temp_directory_path(), ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("qipu-bench-local-", 0) == 0) out.push_back(name);
  }
  return out;
}

TEST(OpsBenchLocal, PrintsConsistentFiguresAndKeepsTheDatabaseOnlyWhenAsked) {
  TempDir dir("bench-local");
  ASSERT_FALSE(dir.path().empty());
  const std::string keep = dir.Sub("kept");
  const BenchRun r = BenchLocal(
      dir.path(), "kept",
      {"--games", "300", "--size", "9", "--seed", "7", "--threads", "2",
       "--playout-seconds", "0.2", "--sample", "40", "--dir", keep, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j =
      nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["size"], 9);
  EXPECT_EQ(j["threads"], 2);
  EXPECT_EQ(j["index_depth"], 30);
  EXPECT_EQ(j["games"], 300);
  EXPECT_EQ(j["sample_games"], 40);
  const double gps = j["games_per_sec"];
  const double pps = j["full_playouts_per_sec"];
  EXPECT_GT(gps, 0);
  EXPECT_GT(pps, 0);
  EXPECT_NEAR(j["ratio"].get<double>(), gps / pps, 1e-9 * gps / pps);
  EXPECT_NEAR(j["seconds"].get<double>() * gps, 300, 1e-6);
  EXPECT_GT(j["cpu_us_per_game"].get<double>(), 0);
  EXPECT_GT(j["cores_busy"].get<double>(), 0);
  const double play = j["play_us_per_game"];
  const double replay = j["replay_us_per_game"];
  const double prepare = j["prepare_us_per_game"];
  EXPECT_GT(play, 0);
  EXPECT_GT(replay, 0);
  // The coordinator's work before storage includes a replay of the game
  // (timed apart, so allow for the clock).
  EXPECT_GT(prepare, 0.5 * replay);
  EXPECT_NEAR(j["rest_us_per_game"].get<double>(),
              j["cpu_us_per_game"].get<double>() - play - prepare, 1e-6);

  // The database under --dir holds the job's 300 games: `qipu query
  // results` on it agrees.
  ASSERT_TRUE(std::filesystem::exists(keep + "/db"));
  auto q = Subprocess::Start(
      {kQipuBinary, "query", "results", "--db", keep + "/db", "--json"},
      dir.Sub("query.out"), dir.Sub("query.err"));
  ASSERT_TRUE(q.ok()) << q.status();
  ASSERT_EQ((*q)->Wait(absl::Seconds(60) * kSlowdown), 0) << (*q)->Stderr();
  const nlohmann::json results = nlohmann::json::parse(
      (*q)->Stdout(), nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(results.is_object()) << (*q)->Stdout();
  EXPECT_EQ(results["games"], 300) << results.dump();

  // Without --dir, nothing is left in the temporary directory.
  const std::vector<std::string> before = LeftoverTempDirs();
  const BenchRun t = BenchLocal(dir.path(), "temp",
                                {"--games", "50", "--size", "9",
                                 "--playout-seconds", "0.1", "--sample", "5"});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("ratio"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("qipu local"), std::string::npos) << t.out;
  // Only directories that appeared during the run count: tests running in
  // parallel make and remove their own qipu-bench-local-* directories.
  std::vector<std::string> appeared;
  for (const std::string& name : LeftoverTempDirs()) {
    if (std::find(before.begin(), before.end(), name) == before.end() &&
        name.rfind("qipu-bench-local-flags-", 0) != 0) {
      appeared.push_back(name);
    }
  }
  EXPECT_TRUE(appeared.empty()) << absl::StrJoin(appeared, ", ");
}

TEST(OpsBenchLocal, BadFlagsAreRefusedWithAMessage) {
  TempDir dir("bench-local-flags");
  ASSERT_FALSE(dir.path().empty());
  const BenchRun threads =
      BenchLocal(dir.path(), "threads", {"--threads", "0"});
  EXPECT_NE(threads.status, 0);
  EXPECT_NE(threads.err.find("--threads"), std::string::npos) << threads.err;
  const BenchRun size = BenchLocal(dir.path(), "size", {"--size", "40"});
  EXPECT_NE(size.status, 0);
  EXPECT_NE(size.err.find("size"), std::string::npos) << size.err;
  // A --dir that cannot be a directory (a file is in the way).
  const std::string file = dir.Sub("a-file");
  std::FILE* f = std::fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  const BenchRun blocked = BenchLocal(
      dir.path(), "blocked", {"--games", "10", "--dir", file + "/sub"});
  EXPECT_EQ(blocked.status, 1);
  EXPECT_NE(blocked.err.find("qipu bench local: --dir"), std::string::npos)
      << blocked.err;
}

}  // namespace
}  // namespace qipu::testing

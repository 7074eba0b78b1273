// Process test: `qipu arena` as an engine author uses it -- a tournament
// file of qipu policies and a GTP engine (the real `qipu gtp` binary) run
// to its end by --db, killed with SIGKILL part-way and started again with
// the same command: the tournament finishes with every game played and
// stored exactly once (the games column family under source
// "tournament:<id>", the report's game ids, the SGF files); `arena show`
// answers the same by --db and through a coordinator process (--server),
// which can also run an arena itself; a bad file is refused with where
// and why.
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

using Json = nlohmann::json;

std::string WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// A round robin of four on 9x9: two searching policies slow enough to be
// caught mid-round, a pattern policy and a GTP engine.
std::string FileText(const std::string& name, const std::string& mcts) {
  return absl::StrCat(R"({
  "name": ")",
                      name, R"(",
  "system": "round-robin",
  "board_size": 9,
  "komi": 7.5,
  "clock": "none",
  "illegal_moves": "chinese",
  "concurrency": 2,
  "index_depth": 20,
  "entrants": [
    {"name": "mcts-a", "spec": ")",
                      mcts, R"("},
    {"name": "mcts-b", "spec": ")",
                      mcts, R"("},
    {"name": "pattern", "spec": "pattern"},
    {"name": "qipu-gtp", "spec": "gtp:)",
                      kQipuBinary,
                      R"( gtp --policy random"}
  ]
})");
}

// The report's checks: finished, 6 games with distinct ids, 12 points.
void ExpectComplete(const Json& report) {
  ASSERT_TRUE(report.is_object()) << report;
  EXPECT_TRUE(report["finished"].get<bool>());
  std::set<std::string> ids;
  for (const Json& g : report["games"]) {
    ASSERT_TRUE(g["game_id"].is_string()) << g;
    ids.insert(g["game_id"].get<std::string>());
    EXPECT_NE(g["result"], "") << g;
  }
  EXPECT_EQ(report["games"].size(), 6u);
  EXPECT_EQ(ids.size(), 6u);
  double points = 0;
  for (const Json& row : report["standings"]["rows"]) {
    points += row["points"].get<double>();
  }
  EXPECT_EQ(points, 12);
  EXPECT_EQ(report["crosstable"]["rows"].size(), 4u);
  EXPECT_TRUE(report["ratings"].is_object()) << report["ratings"];
}

uint64_t StoredGames(const std::string& dir,
                     const std::vector<std::string>& target,
                     const std::string& id) {
  std::vector<std::string> args = {"query", "results", "--source",
                                   absl::StrCat("tournament:", id), "--json"};
  args.insert(args.end(), target.begin(), target.end());
  const Ran r = RunQipu(dir, absl::StrCat("results-", id), args);
  EXPECT_EQ(r.status, 0) << r.err;
  const Json j = LastJsonLine(r.out);
  return j.value("games", uint64_t{0});
}

TEST(OpsArena, KilledAndStartedAgainFinishesWithEveryGameStoredOnce) {
  TempDir tmp("ops_arena");
  const std::string db = tmp.Sub("db");
  const std::string sgf = tmp.Sub("sgf");
  const std::string file = WriteFile(
      tmp.path() + "/rr.json", FileText("Killed RR", "mcts:playouts=300"));
  const std::vector<std::string> args = {
      kQipuBinary, "arena", "run", file, "--db", db, "--sgf-dir", sgf};
  auto first = Subprocess::Start(args, tmp.path() + "/first.out",
                                 tmp.path() + "/first.err");
  ASSERT_TRUE(first.ok()) << first.status();
  // Wait for the first finished game, then kill the arena mid-round.
  ASSERT_TRUE(WaitUntil(
      [&] {
        return (*first)->Stderr().find(" moves") != std::string::npos ||
               !(*first)->IsRunning();
      },
      absl::Seconds(60 * kSlowdown)))
      << (*first)->StderrTail();
  ASSERT_TRUE((*first)->IsRunning())
      << "the arena ended before it could be killed: "
      << (*first)->StderrTail();
  (*first)->Kill(SIGKILL);
  (*first)->Wait(absl::Seconds(10));

  std::vector<std::string> again(args.begin() + 1, args.end());
  again.push_back("--json");
  const Ran second = RunQipu(tmp.path(), "second", again);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_NE(second.err.find("continued"), std::string::npos) << second.err;
  const Json report = LastJsonLine(second.out);
  ExpectComplete(report);
  const std::string id = report["tournament"]["tournament"].get<std::string>();
  EXPECT_EQ(StoredGames(tmp.path(), {"--db", db}, id), 6u);
  // One SGF per game (the killed run's and the second's).
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(sgf)) {
    if (e.path().extension() == ".sgf") ++files;
  }
  EXPECT_EQ(files, 6);

  // The same answers through a coordinator on that database.
  CoordinatorProcess coord(db, tmp.Sub("coord"));
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  const Ran shown = RunQipu(tmp.path(), "show",
                            {"arena", "show", "--tournament", id, "--server",
                             coord.address(), "--json"});
  ASSERT_EQ(shown.status, 0) << shown.err;
  EXPECT_EQ(LastJsonLine(shown.out)["games"], report["games"]);
  EXPECT_EQ(LastJsonLine(shown.out)["standings"], report["standings"]);
  EXPECT_EQ(StoredGames(tmp.path(), {"--server", coord.address()}, id), 6u);

  // An arena run through the coordinator.
  const std::string quick =
      WriteFile(tmp.path() + "/quick.json", FileText("Served RR", "random"));
  const Ran served =
      RunQipu(tmp.path(), "served",
              {"arena", "run", quick, "--server", coord.address(), "--json"});
  ASSERT_EQ(served.status, 0) << served.err;
  const Json served_report = LastJsonLine(served.out);
  ExpectComplete(served_report);
  const std::string served_id =
      served_report["tournament"]["tournament"].get<std::string>();
  EXPECT_NE(served_id, id);
  EXPECT_EQ(StoredGames(tmp.path(), {"--server", coord.address()}, served_id),
            6u);
}

TEST(OpsArena, RefusesABadFileWithWhereAndWhy) {
  TempDir tmp("ops_arena_bad");
  const std::string file =
      WriteFile(tmp.path() + "/bad.json",
                R"({"name": "x", "board_size": 9, "entrants": [
           {"name": "a", "spec": "random"}, {"name": "b", "spec": "mcts:c=x"}]})");
  const Ran r =
      RunQipu(tmp.path(), "bad", {"arena", "run", file, "--db", tmp.Sub("db")});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("bad.json: entrants[1]: \"spec\""), std::string::npos)
      << r.err;
  const Ran missing = RunQipu(
      tmp.path(), "missing",
      {"arena", "run", tmp.path() + "/none.json", "--db", tmp.Sub("db")});
  EXPECT_EQ(missing.status, 2) << missing.err;
  EXPECT_NE(missing.err.find("none.json"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace qipu::testing

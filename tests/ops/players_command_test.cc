// Process test of issue 32's commands: hand-made records with full-width
// names, ranks in names and an alias file, imported by the real `qipu
// import --aliases`; `qipu query games` (text and --json: players with
// ranks, event, result, paging) with --player/--as/--opponent/--event/
// --result/--rank-min; `qipu query players`; openings and results of a
// player; bad alias files (exit 2 naming FILE:LINE); and the same queries
// through a coordinator (--server), `qipu aliases` changing its groups.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

const char* const kRecords[] = {
    "(;GM[1]FF[4]SZ[19]PB[Ke Jie 9p]PW[Gu Li]DT[2017-05-23]"
    "EV[Future of Go]RE[B+R];B[pd];W[dp];B[pp])",
    "(;GM[1]FF[4]SZ[19]PB[ＫＥ　ＪＩＥ]PW[古力 九段]DT[2018-01-02]"
    "EV[Chinese League]RE[W+1.5];B[dd];W[pp])",
    "(;GM[1]FF[4]SZ[19]PB[古力]PW[柯洁 九段]DT[2019-03-04]"
    "EV[Future of Go Summit]RE[W+R];B[pd];W[dd])",
    "(;GM[1]FF[4]SZ[19]PB[Lee Sedol]PW[Ke Jie]WR[9p]DT[2016]RE[Draw]"
    ";B[pd];W[dp])",
};

class OpsPlayers : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.Sub("records");
    std::filesystem::create_directories(dir_);
    for (size_t i = 0; i < std::size(kRecords); ++i) {
      std::ofstream(absl::StrCat(dir_, "/g", i, ".sgf")) << kRecords[i];
    }
    aliases_ = tmp_.Sub("aliases.txt");
    std::ofstream(aliases_) << "# one person a line\nKe Jie, 柯洁\n"
                               "Gu Li\t古力\n";
  }
  Ran Qipu(const std::vector<std::string>& args) {
    return RunQipu(tmp_.path(), absl::StrCat("run", ++runs_), args);
  }
  nlohmann::json Json(const std::vector<std::string>& args) {
    const Ran r = Qipu(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return LastJsonLine(r.out);
  }
  // `qipu query games --json` with `args` against `target` (--db D or
  // --server A).
  nlohmann::json Games(const std::vector<std::string>& target,
                       std::vector<std::string> args) {
    std::vector<std::string> all = {"query", "games"};
    all.insert(all.end(), target.begin(), target.end());
    all.insert(all.end(), args.begin(), args.end());
    all.push_back("--json");
    return Json(all);
  }

  TempDir tmp_;
  std::string dir_;
  std::string aliases_;
  int runs_ = 0;
};

TEST_F(OpsPlayers, ImportWithAliasesThenQueryGamesPlayersAndOpenings) {
  const std::string db = tmp_.Sub("db");
  const nlohmann::json s = Json({"import", "--db", db, dir_, "--aliases",
                                 aliases_, "--json", "--no-progress"});
  EXPECT_EQ(s["imported"], 4u) << s.dump();
  const std::vector<std::string> t = {"--db", db};

  nlohmann::json g = Games(t, {"--player", "柯洁"});
  EXPECT_EQ(g["total"], 4u) << g.dump();
  ASSERT_EQ(g["games"].size(), 4u);
  EXPECT_EQ(g["games"][0]["date"], "2016");
  EXPECT_EQ(g["games"][1]["black"]["name"], "Ke Jie 9p");
  EXPECT_EQ(g["games"][1]["black"]["key"], "ke jie");
  EXPECT_EQ(g["games"][1]["black"]["rank"], "9p");
  EXPECT_EQ(g["games"][1]["event"], "Future of Go");
  EXPECT_EQ(g["games"][1]["result"], "B+R");
  EXPECT_EQ(g["games"][1]["moves"], 3u);
  EXPECT_EQ(g["games"][3]["white"]["key"], "ke jie");  // 柯洁 九段
  EXPECT_EQ(Games(t, {"--player", "KE JIE", "--as", "black"})["total"], 2u);
  EXPECT_EQ(Games(t, {"--player", "ke jie", "--opponent", "gu li"})["total"],
            3u);
  EXPECT_EQ(Games(t, {"--event", "future of go"})["total"], 2u);
  EXPECT_EQ(Games(t, {"--result", "W+"})["total"], 2u);
  EXPECT_EQ(Games(t, {"--player", "ke jie", "--rank-min", "9p"})["total"], 3u);
  // Paging by date.
  nlohmann::json p1 = Games(t, {"--page-size", "3"});
  ASSERT_EQ(p1["games"].size(), 3u);
  const std::string token = p1["next_page_token"];
  ASSERT_FALSE(token.empty());
  nlohmann::json p2 = Games(t, {"--page-size", "3", "--page-token", token});
  ASSERT_EQ(p2["games"].size(), 1u);
  EXPECT_EQ(p2["games"][0]["date"], "2019-03-04");

  // The text form names the players with their ranks.
  Ran text = Qipu({"query", "games", "--db", db, "--player", "gu li"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_TRUE(absl::StrContains(text.out, "3 game(s)")) << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, "Ke Jie 9p")) << text.out;

  nlohmann::json players =
      Json({"query", "players", "--db", db, "--prefix", "KE", "--json"});
  ASSERT_EQ(players["players"].size(), 1u) << players.dump();
  EXPECT_EQ(players["players"][0]["key"], "ke jie");
  EXPECT_EQ(players["players"][0]["games"], 4u);
  EXPECT_EQ(players["players"][0]["first"], 20160000u);
  EXPECT_EQ(players["players"][0]["last"], 20190304u);

  // A repertoire: Ke Jie's first moves as Black, symmetries folded.
  nlohmann::json o = Json({"query", "openings", "--db", db, "--player",
                           "Ke Jie", "--as", "black", "--json"});
  EXPECT_EQ(o["games"], 2u) << o.dump();
  ASSERT_EQ(o["continuations"].size(), 1u) << o.dump();
  nlohmann::json r =
      Json({"query", "results", "--db", db, "--player", "古力", "--json"});
  EXPECT_EQ(r["games"], 3u) << r.dump();

  // Bad flags and files: exit 2, naming what is wrong.
  Ran as_alone = Qipu({"query", "games", "--db", db, "--as", "black"});
  EXPECT_EQ(as_alone.status, 2);
  EXPECT_TRUE(absl::StrContains(as_alone.err, "--as")) << as_alone.err;
  Ran bad_result = Qipu({"query", "games", "--db", db, "--result", "B+R"});
  EXPECT_EQ(bad_result.status, 2);
  EXPECT_TRUE(absl::StrContains(bad_result.err, "--result")) << bad_result.err;
  const std::string bad = tmp_.Sub("bad.txt");
  std::ofstream(bad) << "Ke Jie, 柯洁\nLee Sedol\n";
  Ran bad_file = Qipu({"aliases", bad, "--db", db});
  EXPECT_EQ(bad_file.status, 2);
  EXPECT_TRUE(absl::StrContains(bad_file.err, bad + ":2:")) << bad_file.err;
}

TEST_F(OpsPlayers, ThroughACoordinatorAliasesApplyAfterTheImport) {
  const std::string db = tmp_.Sub("served");
  CoordinatorProcess coord(db, tmp_.Sub("coord"));
  ASSERT_TRUE(coord.Start().ok());
  const std::vector<std::string> t = {"--server", coord.address()};
  ASSERT_EQ(Qipu({"import", "--server", coord.address(), dir_, "--no-progress"})
                .status,
            0);
  EXPECT_EQ(Games(t, {"--player", "柯洁"})["total"], 1u);
  Ran set = Qipu({"aliases", aliases_, "--server", coord.address()});
  ASSERT_EQ(set.status, 0) << set.err;
  EXPECT_EQ(Games(t, {"--player", "柯洁"})["total"], 4u);
  nlohmann::json players = Json({"query", "players", "--server",
                                 coord.address(), "--prefix", "gu", "--json"});
  ASSERT_EQ(players["players"].size(), 1u) << players.dump();
  EXPECT_EQ(players["players"][0]["games"], 3u);
  coord.Stop();
}

}  // namespace
}  // namespace qipu::testing

// Process test: `qipu tournament ...` as a tournament director uses it,
// against a database the command opens (--db, created by `new`) and
// through a qipu-coordinator process (--server) that is killed with
// SIGKILL and restarted in the middle of the event: a Swiss of 7 players
// (byes, no repeated pair, results entered between rounds, pairing refused
// while a result is missing, a withdrawal), a round robin of 5 by the
// rotation table (every pair meets once, one bye a round), standings with
// their tie-breaks, the crosstable, CSV and OpenGotha-style exports, and
// bad input refused with what is wrong.
#include <signal.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

using Json = nlohmann::json;

// Runs `qipu tournament <args> <target...>`; the parsed last line of
// stdout when `json`.
struct Director {
  std::string dir;
  std::vector<std::string> target;  // {"--db", D} or {"--server", A}
  int calls = 0;

  Ran Run(std::vector<std::string> args) {
    std::vector<std::string> full = {"tournament"};
    full.insert(full.end(), args.begin(), args.end());
    full.insert(full.end(), target.begin(), target.end());
    return RunQipu(dir, absl::StrCat("t", calls++), full);
  }
  Json RunJson(std::vector<std::string> args) {
    args.push_back("--json");
    const Ran r = Run(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return LastJsonLine(r.out);
  }
};

// Enters a result for every table of the round just paired: Black wins at
// odd tables, White at even ones.
void EnterResults(Director& d, const std::string& id, const Json& paired) {
  for (const Json& p : paired["pairings"]) {
    const int table = p["table"].get<int>();
    const Ran r =
        d.Run({"result", "--tournament", id, "--round",
               absl::StrCat(paired["round"].get<int>()), "--table",
               absl::StrCat(table), "--result", table % 2 == 1 ? "B+" : "W+"});
    ASSERT_EQ(r.status, 0) << r.err;
  }
}

// A Swiss of 7 over 3 rounds; `between_rounds` runs after each round's
// results (a coordinator restart, for --server).
void PlaySwiss(Director& d, const std::function<void()>& between_rounds) {
  const Json created = d.RunJson(
      {"new", "--name", "Club Swiss", "--system", "swiss", "--rounds", "3"});
  ASSERT_TRUE(created.contains("tournament")) << created;
  const std::string id = created["tournament"].get<std::string>();
  const std::vector<std::pair<std::string, std::string>> players = {
      {"Li", "5d"},  {"Wang", "4d"}, {"Zhang", "3d"}, {"Chen", "2d"},
      {"Liu", "1d"}, {"Yang", "1k"}, {"Zhao", "2k"}};
  for (const auto& [name, rank] : players) {
    const Ran r = d.Run({"player", "add", "--tournament", id, "--name", name,
                         "--rank", rank, "--club", "Beijing"});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  // A name twice is refused.
  Ran dup = d.Run({"player", "add", "--tournament", id, "--name", "Li"});
  EXPECT_NE(dup.status, 0);
  EXPECT_NE(dup.err.find("Li"), std::string::npos) << dup.err;

  std::set<std::pair<std::string, std::string>> met;
  std::set<std::string> had_bye;
  for (int round = 1; round <= 3; ++round) {
    const Json paired = d.RunJson({"pair", "--tournament", id});
    ASSERT_EQ(paired["round"].get<int>(), round) << paired;
    ASSERT_EQ(paired["pairings"].size(), 3u) << paired;
    ASSERT_FALSE(paired["bye"].is_null()) << paired;
    const std::string bye = paired["bye"].get<std::string>();
    EXPECT_TRUE(had_bye.insert(bye).second) << bye << " had two byes";
    std::set<std::string> seen = {bye};
    for (const Json& p : paired["pairings"]) {
      const std::string b = p["black"].get<std::string>();
      const std::string w = p["white"].get<std::string>();
      EXPECT_TRUE(seen.insert(b).second && seen.insert(w).second) << paired;
      EXPECT_TRUE(met.insert(std::minmax(b, w)).second)
          << b << " and " << w << " met twice";
    }
    EXPECT_EQ(seen.size(), 7u);
    // Pairing again before the results are in is refused, naming them.
    const Ran early = d.Run({"pair", "--tournament", id});
    EXPECT_EQ(early.status, 1) << early.out;
    EXPECT_NE(early.err.find("table"), std::string::npos) << early.err;
    EnterResults(d, id, paired);
    if (between_rounds) between_rounds();
  }
  // The event is over: no fourth round.
  EXPECT_NE(d.Run({"pair", "--tournament", id}).status, 0);

  const Json st = d.RunJson({"standings", "--tournament", id});
  ASSERT_EQ(st["rows"].size(), 7u) << st;
  EXPECT_EQ(st["order"][0], "points") << st;
  EXPECT_EQ(st["order"][1], "sos") << st;
  int total = 0;
  int previous = 1 << 30;
  for (const Json& row : st["rows"]) {
    const int points = row["points"].get<int>();
    total += points;
    EXPECT_LE(points, previous) << st;  // ranked by points first
    previous = points;
  }
  // 3 rounds of 3 decided games (2 points each) and a bye (2 points).
  EXPECT_EQ(total, 3 * (3 * 2 + 2)) << st;

  const Json cross = d.RunJson({"crosstable", "--tournament", id});
  ASSERT_EQ(cross["rows"].size(), 7u);
  EXPECT_EQ(cross["rows"][0]["cells"].size(), 3u);

  // Ratings from the 9 games played: every player rated, best first.
  const Json ratings = d.RunJson({"ratings", "--tournament", id});
  ASSERT_EQ(ratings["players"].size(), 7u) << ratings;
  EXPECT_GE(ratings["players"][0]["rating"].get<double>(),
            ratings["players"][6]["rating"].get<double>());
  EXPECT_LT(ratings["players"][0]["low"].get<double>(),
            ratings["players"][0]["rating"].get<double>());

  const Ran csv = d.Run({"export", "--tournament", id, "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("rank,name,points,sos", 0), 0u) << csv.out;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 8);
  const Ran xml =
      d.Run({"export", "--tournament", id, "--format", "opengotha"});
  ASSERT_EQ(xml.status, 0) << xml.err;
  EXPECT_NE(xml.out.find("<Player "), std::string::npos);
  EXPECT_NE(xml.out.find("result=\"RESULT_BLACKWINS\""), std::string::npos);
  EXPECT_NE(xml.out.find("<ByePlayer "), std::string::npos);
  EXPECT_EQ(d.Run({"export", "--tournament", id, "--format", "pdf"}).status, 2);
}

TEST(OpsTournament, SwissAndRoundRobinOnADatabase) {
  TempDir tmp;
  Director d{tmp.path(), {"--db", tmp.Sub("db")}};
  PlaySwiss(d, nullptr);

  // Round robin of 5: the rotation gives every pair once, one bye a round.
  const Json created =
      d.RunJson({"new", "--name", "League", "--system", "round-robin"});
  const std::string id = created["tournament"].get<std::string>();
  EXPECT_EQ(id, "2");
  for (const char* name : {"A", "B", "C", "D", "E"}) {
    ASSERT_EQ(
        d.Run({"player", "add", "--tournament", id, "--name", name}).status, 0);
  }
  std::set<std::pair<std::string, std::string>> met;
  for (int round = 1; round <= 5; ++round) {
    const Json paired = d.RunJson({"pair", "--tournament", id});
    ASSERT_EQ(paired["pairings"].size(), 2u) << paired;
    ASSERT_FALSE(paired["bye"].is_null()) << paired;
    for (const Json& p : paired["pairings"]) {
      EXPECT_TRUE(met.insert(std::minmax(p["black"].get<std::string>(),
                                         p["white"].get<std::string>()))
                      .second)
          << paired;
    }
    EnterResults(d, id, paired);
  }
  EXPECT_EQ(met.size(), 10u);
  const Json st = d.RunJson({"standings", "--tournament", id});
  EXPECT_EQ(st["order"][1], "sodos") << st;

  // A withdrawal after round 1 of a Swiss (art. 28): results stand, the
  // player is not paired again.
  const std::string small = d.RunJson({"new", "--name", "Small", "--system",
                                       "swiss", "--rounds", "3"})["tournament"]
                                .get<std::string>();
  for (const char* name : {"P1", "P2", "P3", "P4"}) {
    ASSERT_EQ(
        d.Run({"player", "add", "--tournament", small, "--name", name}).status,
        0);
  }
  EnterResults(d, small, d.RunJson({"pair", "--tournament", small}));
  ASSERT_EQ(d.Run({"player", "withdraw", "--tournament", small, "--name", "P1"})
                .status,
            0);
  const Json after = d.RunJson({"pair", "--tournament", small});
  ASSERT_EQ(after["pairings"].size(), 1u) << after;
  EXPECT_NE(after["pairings"][0]["black"], "P1") << after;
  EXPECT_NE(after["pairings"][0]["white"], "P1") << after;
  EXPECT_NE(after["bye"], "P1") << after;

  // All three tournaments are listed.
  const Json all = d.RunJson({"list"});
  ASSERT_TRUE(all.is_array());
  EXPECT_EQ(all.size(), 3u);

  // Bad input: a result spelling, a table that does not exist, an unknown
  // tournament, an id that is not one.
  Ran bad = d.Run({"result", "--tournament", id, "--round", "1", "--table", "1",
                   "--result", "black"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("black"), std::string::npos) << bad.err;
  bad = d.Run({"result", "--tournament", id, "--round", "1", "--table", "9",
               "--result", "B+"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("table"), std::string::npos) << bad.err;
  bad = d.Run({"standings", "--tournament", "77"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("no tournament 77"), std::string::npos) << bad.err;
  bad = d.Run({"show", "--tournament", "x1"});
  EXPECT_EQ(bad.status, 2);
  bad = d.Run({"new", "--name", "X", "--system", "lottery"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("swiss"), std::string::npos) << bad.err;
}

TEST(OpsTournament, ThroughACoordinatorThatIsKilledBetweenRounds) {
  TempDir tmp;
  CoordinatorProcess coord(tmp.Sub("db"), tmp.Sub("coordinator"));
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  Director d{tmp.path(), {"--server", coord.stable_address()}};
  // The database is the coordinator's: --db on it is refused while it runs.
  Director local{tmp.path(), {"--db", tmp.Sub("db")}};
  const Ran held = local.Run({"list"});
  EXPECT_EQ(held.status, 1);
  EXPECT_NE(held.err.find("--server"), std::string::npos) << held.err;
  PlaySwiss(d, [&] {
    // Every change was durable before the command returned.
    coord.Kill();
    ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  });
  coord.Stop();
  // The same tournament, read from the database afterwards.
  const Json shown = local.RunJson({"show", "--tournament", "1"});
  EXPECT_EQ(shown["rounds_paired"].get<int>(), 3) << shown;
  EXPECT_EQ(shown["players"].size(), 7u) << shown;
}

}  // namespace
}  // namespace qipu::testing

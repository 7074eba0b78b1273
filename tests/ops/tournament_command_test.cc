// Process test: `qipu tournament ...` as a tournament director uses it,
// against a database the command opens (--db, created by `new`) and
// through a qipu-coordinator process (--server) that is killed with
// SIGKILL and restarted in the middle of the event: a Swiss of 7 players
// (byes, no repeated pair, results entered between rounds, pairing refused
// while a result is missing, a withdrawal), a round robin of 5 by the
// rotation table (every pair meets once, one bye a round), standings with
// their tie-breaks, the crosstable, CSV and OpenGotha-style exports, and
// bad input refused with what is wrong. Team events: a round robin of 4
// teams of 3 boards entered board by board and match by match, ranked by
// match points, board points and board 1's points (checked against values
// computed by hand); and a team challenge (the winner stays on).
#include <signal.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
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

// The result of one board of a team match, from the teams' side: the team
// that wins it, or "=" for a draw.
struct BoardOutcome {
  std::string winner;
};

// Enters a team match's boards as `--boards`, translating "which team won"
// into B+/W+ by the colours the pairing printed per board.
std::string BoardsFlag(const Json& pairing,
                       const std::vector<BoardOutcome>& boards) {
  std::vector<std::string> results;
  for (size_t b = 0; b < boards.size(); ++b) {
    const Json& board = pairing["boards"][b];
    if (boards[b].winner == "=") {
      results.push_back("draw");
    } else {
      results.push_back(board["black_team"] == boards[b].winner ? "B+" : "W+");
    }
  }
  return absl::StrJoin(results, ",");
}

// A round robin of 4 teams of 3 boards entered as a director does: teams
// registered by board, each round paired and printed per board, results
// entered per board (one board at a time, and a whole match at once), and
// the standings, crosstable and CSV checked against values computed by
// hand. A and B are level on match points (5) and board points (11);
// A ranks first by board 1's points (4 against 2), though B has more on
// board 2.
TEST(OpsTournament, TeamRoundRobinRankedByMatchBoardThenBoardOnePoints) {
  TempDir tmp;
  Director d{tmp.path(), {"--db", tmp.Sub("db")}};
  const std::string id =
      d.RunJson({"new", "--name", "Team League", "--system", "round-robin",
                 "--teams", "--boards", "3"})["tournament"]
          .get<std::string>();
  // Registered out of board order: --board places them.
  for (const std::string team : {"A", "B", "C", "D"}) {
    for (const int board : {3, 1, 2}) {
      const Ran r = d.Run({"player", "add", "--tournament", id, "--name",
                           absl::StrCat(team, board), "--team", team, "--board",
                           absl::StrCat(board)});
      ASSERT_EQ(r.status, 0) << r.err;
    }
  }
  // Who wins each board of each match (by team; "=" a draw), board 1 first.
  const std::map<std::pair<std::string, std::string>, std::vector<BoardOutcome>>
      outcomes = {
          {{"A", "B"}, {{"A"}, {"B"}, {"="}}},  // 3:3, drawn
          {{"A", "C"}, {{"A"}, {"A"}, {"C"}}},  // 4:2
          {{"A", "D"}, {{"D"}, {"A"}, {"A"}}},  // 4:2
          {{"B", "C"}, {{"C"}, {"B"}, {"B"}}},  // 4:2
          {{"B", "D"}, {{"B"}, {"B"}, {"D"}}},  // 4:2
          {{"C", "D"}, {{"C"}, {"="}, {"="}}},  // 4:2
      };
  std::set<std::pair<std::string, std::string>> met;
  for (int round = 1; round <= 3; ++round) {
    const Json paired = d.RunJson({"pair", "--tournament", id});
    ASSERT_EQ(paired["round"].get<int>(), round) << paired;
    ASSERT_EQ(paired["pairings"].size(), 2u) << paired;
    EXPECT_TRUE(paired["bye"].is_null()) << paired;
    for (const Json& p : paired["pairings"]) {
      const std::string black = p["black"].get<std::string>();
      const std::string white = p["white"].get<std::string>();
      ASSERT_TRUE(met.insert(std::minmax(black, white)).second) << paired;
      // Board k: the players of board k, the team in "black" holding Black
      // on odd boards.
      ASSERT_EQ(p["boards"].size(), 3u) << paired;
      for (int b = 0; b < 3; ++b) {
        const Json& board = p["boards"][b];
        EXPECT_EQ(board["board"].get<int>(), b + 1);
        const std::string& black_team = b % 2 == 0 ? black : white;
        const std::string& white_team = b % 2 == 0 ? white : black;
        EXPECT_EQ(board["black_team"], black_team) << paired;
        EXPECT_EQ(board["black"], absl::StrCat(black_team, b + 1)) << paired;
        EXPECT_EQ(board["white"], absl::StrCat(white_team, b + 1)) << paired;
      }
      const auto key = std::minmax(black, white);
      const std::string flag = BoardsFlag(p, outcomes.at(key));
      const std::string table = absl::StrCat(p["table"].get<int>());
      const std::string r = absl::StrCat(round);
      if (round == 1 && p["table"] == 1) {
        // Board by board; pairing is refused while a board is missing,
        // naming it.
        const std::vector<std::string> results = absl::StrSplit(flag, ',');
        for (int b = 0; b < 3; ++b) {
          const Ran one = d.Run({"result", "--tournament", id, "--round", r,
                                 "--table", table, "--board",
                                 absl::StrCat(b + 1), "--result", results[b]});
          ASSERT_EQ(one.status, 0) << one.err;
          if (b == 1) {
            const Ran early = d.Run({"pair", "--tournament", id});
            EXPECT_EQ(early.status, 1) << early.out;
            EXPECT_NE(early.err.find("board 3"), std::string::npos)
                << early.err;
          }
        }
      } else {
        const Json shown = d.RunJson({"result", "--tournament", id, "--round",
                                      r, "--table", table, "--boards", flag});
        const Json& match =
            shown["round"][round - 1]["pairings"][p["table"].get<int>() - 1];
        EXPECT_EQ(match["black_board_points"].get<int>() +
                      match["white_board_points"].get<int>(),
                  6)
            << match;
      }
    }
  }
  EXPECT_EQ(met.size(), 6u);

  const Json st = d.RunJson({"standings", "--tournament", id});
  ASSERT_EQ(st["rows"].size(), 4u) << st;
  EXPECT_EQ(st["order"][0], "match_points") << st;
  EXPECT_EQ(st["order"][1], "board_points") << st;
  EXPECT_EQ(st["order"][2], "board_1") << st;
  // rank, team, match points, board points, boards 1..3, won-drawn-lost.
  struct Expected {
    int rank;
    std::string name;
    int match_points;
    int board_points;
    std::vector<int> boards;
    int wins, draws, losses;
  };
  const std::vector<Expected> expected = {
      {1, "A", 5, 11, {4, 4, 3}, 2, 1, 0},
      {2, "B", 5, 11, {2, 6, 3}, 2, 1, 0},
      {3, "C", 2, 8, {4, 1, 3}, 1, 0, 2},
      {4, "D", 0, 6, {2, 1, 3}, 0, 0, 3},
  };
  for (size_t i = 0; i < expected.size(); ++i) {
    const Json& row = st["rows"][i];
    const Expected& e = expected[i];
    EXPECT_EQ(row["rank"].get<int>(), e.rank) << row;
    EXPECT_EQ(row["name"], e.name) << row;
    EXPECT_EQ(row["match_points"].get<int>(), e.match_points) << row;
    EXPECT_EQ(row["points"].get<int>(), e.match_points) << row;
    EXPECT_EQ(row["board_points"].get<int>(), e.board_points) << row;
    EXPECT_EQ(row["board_scores"].get<std::vector<int>>(), e.boards) << row;
    for (int b = 0; b < 3; ++b) {
      EXPECT_EQ(row[absl::StrCat("board_", b + 1)].get<int>(), e.boards[b])
          << row;
    }
    EXPECT_EQ(row["wins"].get<int>(), e.wins) << row;
    EXPECT_EQ(row["draws"].get<int>(), e.draws) << row;
    EXPECT_EQ(row["losses"].get<int>(), e.losses) << row;
  }
  const Ran text = d.Run({"standings", "--tournament", id});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("b1"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("board points"), std::string::npos) << text.out;

  // The crosstable: A's match against B (rank 2) drawn 3:3.
  const Json cross = d.RunJson({"crosstable", "--tournament", id});
  EXPECT_TRUE(cross["teams"].get<bool>()) << cross;
  ASSERT_EQ(cross["rows"][0]["name"], "A") << cross;
  EXPECT_EQ(cross["rows"][0]["board_points"].get<int>(), 11) << cross;
  int against_b = 0;
  for (const Json& cell : cross["rows"][0]["cells"]) {
    if (cell["opponent_rank"] != 2) continue;
    ++against_b;
    EXPECT_EQ(cell["result"], "=") << cell;
    EXPECT_EQ(cell["board_points"].get<int>(), 3) << cell;
    EXPECT_EQ(cell["opponent_board_points"].get<int>(), 3) << cell;
  }
  EXPECT_EQ(against_b, 1) << cross;

  // CSV: the per-board columns.
  const Ran csv = d.Run({"export", "--tournament", id, "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("rank,name,match_points,board_points,board_1,"
                          "board_2,board_3,matches,wins,draws,losses,",
                          0),
            0u)
      << csv.out;
  EXPECT_NE(csv.out.find("\n1,A,5,11,4,4,3,3,2,1,0,0,0,0\n"), std::string::npos)
      << csv.out;
  // OpenGotha: every board game, each at its own table.
  const Ran xml =
      d.Run({"export", "--tournament", id, "--format", "opengotha"});
  ASSERT_EQ(xml.status, 0) << xml.err;
  size_t games = 0;
  for (size_t at = xml.out.find("<Game "); at != std::string::npos;
       at = xml.out.find("<Game ", at + 1)) {
    ++games;
  }
  EXPECT_EQ(games, 18u);
  EXPECT_NE(xml.out.find("tableNumber=\"6\""), std::string::npos) << xml.out;

  // Bad input: a board result without --board, --boards of the wrong
  // length, --boards in an individual event.
  Ran bad = d.Run({"result", "--tournament", id, "--round", "1", "--table", "1",
                   "--result", "B+"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("boards 1..3"), std::string::npos) << bad.err;
  bad = d.Run({"result", "--tournament", id, "--round", "1", "--table", "1",
               "--boards", "B+,W+"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("3 boards"), std::string::npos) << bad.err;
  bad = d.Run({"result", "--tournament", id, "--round", "1", "--table", "1",
               "--boards", "B+,W+,black"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("board 3"), std::string::npos) << bad.err;
}

// The team challenge (擂台賽) through the commands: the winner stays on,
// the newcomer takes Black; the team whose players are all out has lost.
TEST(OpsTournament, TeamChallengeWinnerStaysOn) {
  TempDir tmp;
  Director d{tmp.path(), {"--db", tmp.Sub("db")}};
  const std::string id = d.RunJson({"new", "--name", "Challenge", "--system",
                                    "team-challenge"})["tournament"]
                             .get<std::string>();
  // Players x1, x2 of team X; y1, y2 of team Y.
  const auto team_of = [](const std::string& player) {
    return absl::AsciiStrToUpper(player.substr(0, 1));
  };
  for (const char* name : {"x1", "x2", "y1", "y2"}) {
    ASSERT_EQ(d.Run({"player", "add", "--tournament", id, "--name", name,
                     "--team", team_of(name)})
                  .status,
              0);
  }
  // (winner, loser): x1 beats y1, y2 beats x1, x2 beats y2: Y has no
  // player left.
  const std::vector<std::pair<std::string, std::string>> games = {
      {"x1", "y1"}, {"y2", "x1"}, {"x2", "y2"}};
  for (size_t g = 0; g < games.size(); ++g) {
    const Json paired = d.RunJson({"pair", "--tournament", id});
    ASSERT_EQ(paired["pairings"].size(), 1u) << paired;
    const Json& p = paired["pairings"][0];
    const auto& [winner, loser] = games[g];
    EXPECT_EQ(std::minmax(p["black"].get<std::string>(),
                          p["white"].get<std::string>()),
              std::minmax(winner, loser))
        << paired;
    EXPECT_EQ(p["black_team"], team_of(p["black"].get<std::string>()))
        << paired;
    EXPECT_EQ(p["white_team"], team_of(p["white"].get<std::string>()))
        << paired;
    if (g > 0) {
      // The player who has just come on holds Black.
      EXPECT_EQ(p["black"], g == 1 ? "y2" : "x2") << paired;
    }
    const Ran r =
        d.Run({"result", "--tournament", id, "--round", absl::StrCat(g + 1),
               "--table", "1", "--result", p["black"] == winner ? "B+" : "W+"});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const Ran over = d.Run({"pair", "--tournament", id});
  EXPECT_EQ(over.status, 1) << over.out;
  const Json st = d.RunJson({"standings", "--tournament", id});
  ASSERT_EQ(st["rows"].size(), 2u) << st;
  EXPECT_EQ(st["rows"][0]["name"], "X") << st;
  EXPECT_EQ(st["rows"][0]["rank"].get<int>(), 1) << st;
  EXPECT_EQ(st["rows"][0]["wins"].get<int>(), 2) << st;
  EXPECT_EQ(st["rows"][0]["players_left"].get<int>(), 1) << st;
  EXPECT_EQ(st["rows"][1]["name"], "Y") << st;
  EXPECT_EQ(st["rows"][1]["rank"].get<int>(), 2) << st;
  EXPECT_EQ(st["rows"][1]["wins"].get<int>(), 1) << st;
  EXPECT_EQ(st["rows"][1]["players_left"].get<int>(), 0) << st;
  const Ran text = d.Run({"standings", "--tournament", id});
  EXPECT_NE(text.out.find("players left"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace qipu::testing

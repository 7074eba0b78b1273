// The renderings of report/team_report.h on hand-made team matches and
// standings: board points of a match, the boards in JSON, crosstable
// cells, and the per-board CSV columns.
#include "report/team_report.h"

#include <string>

#include "gtest/gtest.h"

namespace qipu::report {
namespace {

// Teams A (players 0, 1) and B (players 2, 3) on 2 boards; A in `black`:
// A0 holds Black on board 1, B3 holds Black on board 2.
qipu::v1::Tournament TwoTeams() {
  qipu::v1::Tournament t;
  t.set_name("League, 2026");
  t.set_teams_event(true);
  t.set_boards(2);
  for (const auto& [name, team] :
       {std::pair<const char*, const char*>{"A0", "A"},
        {"A1", "A"},
        {"B2", "B"},
        {"B3", "B"}}) {
    qipu::v1::TournamentPlayer* p = t.add_players();
    p->set_name(name);
    p->set_team(team);
  }
  return t;
}

qipu::v1::Pairing Match(qipu::v1::GameResult board1,
                        qipu::v1::GameResult board2) {
  qipu::v1::Pairing p;
  p.set_table(1);
  p.set_black(0);
  p.set_white(1);
  qipu::v1::BoardGame* b = p.add_boards();
  b->set_board(1);
  b->set_black(0);
  b->set_white(2);
  b->set_result(board1);
  b = p.add_boards();
  b->set_board(2);
  b->set_black(3);
  b->set_white(1);
  b->set_result(board2);
  return p;
}

TEST(TeamReport, MatchBoardPointsFollowTheColoursOfEachBoard) {
  // Board 1: A0 (Black) wins; board 2: B3 (Black) wins.
  EXPECT_EQ(MatchBoardPoints(Match(qipu::v1::GAME_RESULT_BLACK_WINS,
                                   qipu::v1::GAME_RESULT_BLACK_WINS)),
            std::make_pair(2, 2));
  // Board 2 won by A1 (White), board 1 drawn: A 3, B 1.
  EXPECT_EQ(MatchBoardPoints(Match(qipu::v1::GAME_RESULT_DRAW,
                                   qipu::v1::GAME_RESULT_WHITE_WINS)),
            std::make_pair(3, 1));
  // No result yet counts nothing.
  EXPECT_EQ(MatchBoardPoints(Match(qipu::v1::GAME_RESULT_UNKNOWN,
                                   qipu::v1::GAME_RESULT_WHITE_FORFEIT_WIN)),
            std::make_pair(2, 0));
}

TEST(TeamReport, BoardsJsonNamesPlayersTeamsAndResults) {
  const qipu::v1::Tournament t = TwoTeams();
  const nlohmann::json j = BoardsJson(
      t, Match(qipu::v1::GAME_RESULT_DRAW, qipu::v1::GAME_RESULT_UNKNOWN));
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["board"], 1);
  EXPECT_EQ(j[0]["black"], "A0");
  EXPECT_EQ(j[0]["white_team"], "B");
  EXPECT_EQ(j[0]["result"], "draw");
  EXPECT_EQ(j[1]["black"], "B3");
  EXPECT_EQ(j[1]["black_team"], "B");
  EXPECT_EQ(j[1]["result"], "?");
  const std::string text = BoardsText(
      t, Match(qipu::v1::GAME_RESULT_DRAW, qipu::v1::GAME_RESULT_UNKNOWN));
  EXPECT_NE(text.find("board  2  B3"), std::string::npos) << text;
}

TEST(TeamReport, CrossCellsAndCsv) {
  tournament::CrossCell c;
  c.opponent_rank = 3;
  c.result = "+";
  c.board_points = 5;
  c.opponent_board_points = 1;
  EXPECT_EQ(TeamCrossCellText(c), "3+5:1");
  tournament::CrossCell bye;
  bye.result = "bye";
  bye.board_points = 6;
  EXPECT_EQ(TeamCrossCellText(bye), "bye 6:0");

  const qipu::v1::Tournament t = TwoTeams();
  tournament::Standings s;
  tournament::StandingRow a;
  a.rank = 1;
  a.name = "A, the first";
  a.points = 2;
  a.board_points = 3;
  a.board_scores = {1, 2};
  a.games = 1;
  a.wins = 1;
  s.rows.push_back(a);
  EXPECT_EQ(TeamStandingsCsv(t, s),
            "rank,name,match_points,board_points,board_1,board_2,matches,"
            "wins,draws,losses,byes,warnings,withdrawn\n"
            "1,\"A, the first\",2,3,1,2,1,1,0,0,0,0,0\n");
  nlohmann::json row;
  AddTeamColumns(a, &row);
  EXPECT_EQ(row["match_points"], 2);
  EXPECT_EQ(row["board_1"], 1);
  EXPECT_EQ(row["board_2"], 2);
  const std::string text = TeamStandingsText(t, s);
  EXPECT_NE(text.find("A, the first"), std::string::npos) << text;
  EXPECT_NE(text.find("b2"), std::string::npos) << text;
}

}  // namespace
}  // namespace qipu::report

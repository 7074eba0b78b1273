// Worked examples of the scoring rules (art. 27, 28): SODOS with draws,
// warnings and lots, SOS with byes, team tie-breaks, round robin
// withdrawals under and over half the rounds.
#include "tournament/standings.h"

#include <map>
#include <random>
#include <set>
#include <utility>

#include "gtest/gtest.h"
#include "tests/tournament/driver.h"
#include "tournament/field.h"
#include "tournament/tournament.h"

namespace qipu::tournament {
namespace {

using testing::MakeEvent;
using testing::System;

// Who wins when a meets b: +1 a, -1 b, 0 draw.
using Results = std::map<std::pair<int, int>, int>;

int Lookup(const Results& results, int a, int b) {
  auto it = results.find({a, b});
  if (it != results.end()) return it->second;
  it = results.find({b, a});
  if (it != results.end()) return -it->second;
  ADD_FAILURE() << "no result for " << a << " v " << b;
  return 0;
}

// Pairs and plays every round of a round robin with the given results.
void PlayRoundRobin(v1::Tournament* t, const Results& results) {
  while (!*IsFinished(*t)) {
    const int r = testing::Pair(t);
    for (const v1::Pairing& p : t->round(r - 1).pairings()) {
      if (p.result() != v1::GAME_RESULT_UNKNOWN) continue;
      const int w = Lookup(results, p.black(), p.white());
      ASSERT_TRUE(SetResult(t, r, p.table(),
                            w > 0   ? v1::GAME_RESULT_BLACK_WINS
                            : w < 0 ? v1::GAME_RESULT_WHITE_WINS
                                    : v1::GAME_RESULT_DRAW)
                      .ok());
    }
  }
}

const StandingRow& Row(const Standings& s, const std::string& name) {
  for (const StandingRow& row : s.rows) {
    if (row.name == name) return row;
  }
  ADD_FAILURE() << "no row " << name;
  return s.rows[0];
}

TEST(Standings, RoundRobinSodosWithDraws) {
  // p1 beats p2, draws p3, loses to p4; p2 beats p3 and p4; p3 draws p4.
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 4);
  PlayRoundRobin(&t, {{{0, 1}, 1},
                      {{0, 2}, 0},
                      {{0, 3}, -1},
                      {{1, 2}, 1},
                      {{1, 3}, 1},
                      {{2, 3}, 0}});
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->order,
            (std::vector<std::string>{"points", "sodos", "warnings", "lots"}));
  // Points: p2 4, p1 3, p4 3, p3 2. SODOS: p1 = 4 (p2 beaten) + 2/2 (p3
  // drawn) = 5; p4 = 3 (p1 beaten) + 2/2 = 4: p1 ranks above p4.
  ASSERT_EQ(s->rows.size(), 4u);
  EXPECT_EQ(s->rows[0].name, "p2");
  EXPECT_EQ(s->rows[1].name, "p1");
  EXPECT_EQ(s->rows[2].name, "p4");
  EXPECT_EQ(s->rows[3].name, "p3");
  EXPECT_EQ(Row(*s, "p2").points, 4);
  EXPECT_EQ(Row(*s, "p1").points, 3);
  EXPECT_EQ(Row(*s, "p4").points, 3);
  EXPECT_EQ(Row(*s, "p3").points, 2);
  EXPECT_DOUBLE_EQ(Row(*s, "p1").sodos, 5.0);
  EXPECT_DOUBLE_EQ(Row(*s, "p4").sodos, 4.0);
  EXPECT_DOUBLE_EQ(Row(*s, "p2").sodos, 5.0);  // p3 2 + p4 3
  EXPECT_DOUBLE_EQ(Row(*s, "p3").sodos, 3.0);  // 3/2 + 3/2
  for (int i = 0; i < 4; ++i) EXPECT_EQ(s->rows[i].rank, i + 1);
}

TEST(Standings, WarningsThenLots) {
  // Every game drawn: equal points and SODOS; p2 has 2 warnings, p3 one.
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 4);
  ASSERT_TRUE(AddWarnings(&t, "p2", 2).ok());
  ASSERT_TRUE(AddWarnings(&t, "p3", 1).ok());
  PlayRoundRobin(&t, {{{0, 1}, 0},
                      {{0, 2}, 0},
                      {{0, 3}, 0},
                      {{1, 2}, 0},
                      {{1, 3}, 0},
                      {{2, 3}, 0}});
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok());
  const bool p1_first =
      DrawLot(t.drawing_lots(), 0) < DrawLot(t.drawing_lots(), 3);
  EXPECT_EQ(s->rows[0].name, p1_first ? "p1" : "p4");
  EXPECT_EQ(s->rows[1].name, p1_first ? "p4" : "p1");
  EXPECT_EQ(s->rows[2].name, "p3");
  EXPECT_EQ(s->rows[3].name, "p2");
  EXPECT_EQ(s->rows[3].warnings, 2);
  for (const StandingRow& row : s->rows) {
    EXPECT_EQ(row.points, 3);
    EXPECT_DOUBLE_EQ(row.sodos, 4.5);
  }
}

TEST(Standings, SwissSosAndByes) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
  o.rounds = 2;
  v1::Tournament t = MakeEvent(o, 3);
  // Round 1: p1 v p2, p3 (lowest) has the bye; p1 wins.
  testing::Pair(&t);
  ASSERT_EQ(t.round(0).byes_size(), 1);
  EXPECT_EQ(t.round(0).byes(0), 2);
  const v1::Pairing p = t.round(0).pairings(0);
  ASSERT_TRUE(SetResult(&t, 1, 1,
                        p.black() == 0 ? v1::GAME_RESULT_BLACK_WINS
                                       : v1::GAME_RESULT_WHITE_WINS)
                  .ok());
  // Round 2: p1 (2) v p3 (2), p2 has the bye; p3 wins.
  testing::Pair(&t);
  ASSERT_EQ(t.round(1).byes_size(), 1);
  EXPECT_EQ(t.round(1).byes(0), 1);
  const v1::Pairing q = t.round(1).pairings(0);
  ASSERT_TRUE(SetResult(&t, 2, 1,
                        q.black() == 2 ? v1::GAME_RESULT_BLACK_WINS
                                       : v1::GAME_RESULT_WHITE_WINS)
                  .ok());
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->order,
            (std::vector<std::string>{"points", "sos", "warnings", "lots"}));
  // p3 4 points; p1 and p2 2 each; SOS p1 = 2 (p2) + 4 (p3) = 6, SOS p2 =
  // 2 (p1), the bye adding nothing.
  EXPECT_EQ(s->rows[0].name, "p3");
  EXPECT_EQ(s->rows[1].name, "p1");
  EXPECT_EQ(s->rows[2].name, "p2");
  EXPECT_EQ(Row(*s, "p3").points, 4);
  EXPECT_EQ(Row(*s, "p3").sos, 2);
  EXPECT_EQ(Row(*s, "p1").sos, 6);
  EXPECT_EQ(Row(*s, "p2").points, 2);
  EXPECT_EQ(Row(*s, "p2").sos, 2);
  EXPECT_EQ(Row(*s, "p2").byes, 1);
}

// A team event of four teams on two boards; `board_winner` says which team
// (by name) wins each board of each match, by team names.
TEST(Standings, TeamTieBreaksMatchPointsBoardPointsThenBoardOne) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN);
  o.teams = true;
  o.boards = 2;
  o.name = "teams";
  auto t = CreateTournament(o);
  ASSERT_TRUE(t.ok());
  for (const std::string team : {"A", "B", "C", "D"}) {
    for (int b = 1; b <= 2; ++b) {
      PlayerEntry p;
      p.name = team + std::to_string(b);
      p.team = team;
      ASSERT_TRUE(AddPlayer(&*t, p).ok());
    }
  }
  // Board winners of each match (A-B: A wins board 1, B board 2 ...).
  const std::map<std::pair<std::string, std::string>,
                 std::pair<std::string, std::string>>
      winners = {
          {{"A", "B"}, {"A", "B"}}, {{"A", "C"}, {"A", "A"}},
          {{"A", "D"}, {"A", "D"}}, {{"B", "C"}, {"B", "B"}},
          {{"B", "D"}, {"D", "B"}}, {{"C", "D"}, {"D", "D"}},
      };
  while (!*IsFinished(*t)) {
    const int r = testing::Pair(&*t);
    for (const v1::Pairing& p : t->round(r - 1).pairings()) {
      const std::string x = t->teams(p.black()).name();
      const std::string y = t->teams(p.white()).name();
      auto it = winners.find({std::min(x, y), std::max(x, y)});
      ASSERT_NE(it, winners.end());
      for (int b = 1; b <= 2; ++b) {
        const std::string& w = b == 1 ? it->second.first : it->second.second;
        // Team `black` (x) holds Black on board 1, White on board 2.
        const bool black_wins = (w == x) == (b % 2 == 1);
        ASSERT_TRUE(SetResult(&*t, r, p.table(),
                              black_wins ? v1::GAME_RESULT_BLACK_WINS
                                         : v1::GAME_RESULT_WHITE_WINS,
                              b)
                        .ok());
      }
    }
  }
  auto s = GetStandings(*t);
  ASSERT_TRUE(s.ok()) << s.status();
  // A, B and D all have 4 match points and 8 board points; board 1: A 6,
  // D 4, B 2.
  ASSERT_EQ(s->rows.size(), 4u);
  EXPECT_EQ(s->rows[0].name, "A");
  EXPECT_EQ(s->rows[1].name, "D");
  EXPECT_EQ(s->rows[2].name, "B");
  EXPECT_EQ(s->rows[3].name, "C");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(s->rows[i].points, 4);
    EXPECT_EQ(s->rows[i].board_points, 8);
    EXPECT_EQ(s->rows[i].rank, i + 1);
  }
  EXPECT_EQ(s->rows[0].board_scores, (std::vector<int>{6, 2}));
  EXPECT_EQ(s->rows[1].board_scores, (std::vector<int>{4, 4}));
  EXPECT_EQ(s->rows[2].board_scores, (std::vector<int>{2, 6}));
  EXPECT_EQ(s->rows[3].points, 0);
  EXPECT_EQ(s->rows[3].board_points, 0);
}

TEST(Standings, TeamsEqualOnEverythingShareTheRank) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN);
  o.teams = true;
  o.boards = 2;
  o.name = "teams";
  auto t = CreateTournament(o);
  for (const std::string team : {"A", "B"}) {
    for (int b = 1; b <= 2; ++b) {
      PlayerEntry p;
      p.name = team + std::to_string(b);
      p.team = team;
      ASSERT_TRUE(AddPlayer(&*t, p).ok());
    }
  }
  testing::Pair(&*t);
  ASSERT_TRUE(SetResult(&*t, 1, 1, v1::GAME_RESULT_DRAW, 1).ok());
  ASSERT_TRUE(SetResult(&*t, 1, 1, v1::GAME_RESULT_DRAW, 2).ok());
  auto s = GetStandings(*t);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->rows[0].rank, 1);
  EXPECT_EQ(s->rows[1].rank, 1);
  EXPECT_EQ(s->rows[0].points, 1);
  EXPECT_EQ(t->round(0).pairings(0).result(), v1::GAME_RESULT_DRAW);
}

// A team crosstable: each cell carries the board points for and against;
// a bye is a match won on every board.
TEST(Standings, TeamCrosstableCarriesBoardPoints) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN);
  o.teams = true;
  o.boards = 2;
  o.name = "teams";
  auto t = CreateTournament(o);
  ASSERT_TRUE(t.ok());
  for (const std::string team : {"A", "B", "C"}) {
    for (int b = 1; b <= 2; ++b) {
      PlayerEntry p;
      p.name = team + std::to_string(b);
      p.team = team;
      ASSERT_TRUE(AddPlayer(&*t, p).ok());
    }
  }
  testing::Pair(&*t);
  ASSERT_EQ(t->round(0).pairings_size(), 1);
  ASSERT_EQ(t->round(0).byes_size(), 1);
  // The team in `black` wins board 1 (its Black) and draws board 2: 3:1.
  ASSERT_TRUE(SetResult(&*t, 1, 1, v1::GAME_RESULT_BLACK_WINS, 1).ok());
  ASSERT_TRUE(SetResult(&*t, 1, 1, v1::GAME_RESULT_DRAW, 2).ok());
  const int winner = t->round(0).pairings(0).black();
  const int loser = t->round(0).pairings(0).white();
  const int bye = t->round(0).byes(0);
  auto x = GetCrosstable(*t);
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_TRUE(x->teams);
  ASSERT_EQ(x->rows.size(), 3u);
  for (const CrossRow& row : x->rows) {
    ASSERT_EQ(row.cells.size(), 1u);
    const CrossCell& c = row.cells[0];
    if (row.entrant == bye) {
      EXPECT_EQ(c.result, "bye");
      EXPECT_EQ(c.board_points, 4);
      EXPECT_EQ(row.board_points, 4);
    } else if (row.entrant == winner) {
      EXPECT_EQ(c.result, "+");
      EXPECT_EQ(c.board_points, 3);
      EXPECT_EQ(c.opponent_board_points, 1);
      EXPECT_EQ(c.opponent, loser);
    } else {
      EXPECT_EQ(c.result, "-");
      EXPECT_EQ(c.board_points, 1);
      EXPECT_EQ(c.opponent_board_points, 3);
      EXPECT_EQ(row.board_points, 1);
    }
  }
}

// Results: the lower index always wins.
Results LowerWins(int n) {
  Results r;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) r[{a, b}] = 1;
  }
  return r;
}

void PlayRounds(v1::Tournament* t, const Results& results, int rounds) {
  for (int i = 0; i < rounds; ++i) {
    const int r = testing::Pair(t);
    for (const v1::Pairing& p : t->round(r - 1).pairings()) {
      if (p.result() != v1::GAME_RESULT_UNKNOWN) continue;
      const int w = Lookup(results, p.black(), p.white());
      ASSERT_TRUE(SetResult(t, r, p.table(),
                            w > 0 ? v1::GAME_RESULT_BLACK_WINS
                                  : v1::GAME_RESULT_WHITE_WINS)
                      .ok());
    }
  }
}

TEST(Withdrawal, RoundRobinUnderHalfVoidsEveryResult) {
  // 6 players, 5 rounds; p3 leaves after 2 games (2 < 5/2): all void.
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 6);
  PlayRounds(&t, LowerWins(6), 2);
  ASSERT_TRUE(WithdrawPlayer(&t, "p3").ok());
  EXPECT_TRUE(t.players(2).results_void());
  PlayRoundRobin(&t, LowerWins(6));
  EXPECT_EQ(t.round_size(), 5);
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok());
  // Without p3: p1 beats 4 players, p2 3, p4 2, p5 1, p6 0.
  const std::vector<std::pair<std::string, int>> expected = {
      {"p1", 8}, {"p2", 6}, {"p4", 4}, {"p5", 2}, {"p6", 0}, {"p3", 0}};
  ASSERT_EQ(s->rows.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(s->rows[i].name, expected[i].first) << i;
    EXPECT_EQ(s->rows[i].points, expected[i].second) << i;
  }
  EXPECT_TRUE(s->rows.back().results_void);
  EXPECT_TRUE(s->rows.back().withdrawn);
  // Later games of p3 are void, not forfeits.
  for (int r = 3; r <= 5; ++r) {
    for (const v1::Pairing& p : t.round(r - 1).pairings()) {
      if (p.black() == 2 || p.white() == 2) {
        EXPECT_EQ(p.result(), v1::GAME_RESULT_VOID);
        EXPECT_TRUE(p.by_withdrawal());
      }
    }
  }
}

TEST(Withdrawal, RoundRobinHalfOrMoreKeepsResultsAndForfeitsTheRest) {
  // p3 leaves after 3 games (3 >= 5/2): results stand, the rest forfeits.
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 6);
  PlayRounds(&t, LowerWins(6), 3);
  std::set<int> played;  // p3's opponents in rounds 1-3
  for (int r = 1; r <= 3; ++r) {
    for (const v1::Pairing& p : t.round(r - 1).pairings()) {
      if (p.black() == 2) played.insert(p.white());
      if (p.white() == 2) played.insert(p.black());
    }
  }
  ASSERT_EQ(played.size(), 3u);
  ASSERT_TRUE(WithdrawPlayer(&t, "p3").ok());
  EXPECT_FALSE(t.players(2).results_void());
  PlayRoundRobin(&t, LowerWins(6));
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok());
  // Expected points: the lower index wins every game played; p3's later
  // opponents win by forfeit.
  std::map<std::string, int> expected;
  for (int a = 0; a < 6; ++a) {
    int points = 0;
    for (int b = 0; b < 6; ++b) {
      if (a == b) continue;
      const bool p3_game = a == 2 || b == 2;
      const bool played_game = !p3_game || played.count(a == 2 ? b : a);
      if (played_game) {
        points += a < b ? 2 : 0;
      } else {
        points += a == 2 ? 0 : 2;  // forfeit to p3's opponent
      }
    }
    expected["p" + std::to_string(a + 1)] = points;
  }
  for (const StandingRow& row : s->rows) {
    EXPECT_EQ(row.points, expected[row.name]) << row.name;
  }
  EXPECT_TRUE(Row(*s, "p3").withdrawn);
  EXPECT_FALSE(Row(*s, "p3").results_void);
  int forfeits = 0;
  for (int r = 4; r <= 5; ++r) {
    for (const v1::Pairing& p : t.round(r - 1).pairings()) {
      if (p.black() == 2 || p.white() == 2) {
        ++forfeits;
        EXPECT_TRUE(p.by_withdrawal());
        EXPECT_EQ(p.result(), p.black() == 2
                                  ? v1::GAME_RESULT_WHITE_FORFEIT_WIN
                                  : v1::GAME_RESULT_BLACK_FORFEIT_WIN);
      }
    }
  }
  EXPECT_EQ(forfeits, 2);
}

TEST(Withdrawal, SwissResultsStandAndNoMorePairing) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
  o.rounds = 4;
  v1::Tournament t = MakeEvent(o, 8);
  std::mt19937_64 rng(1);
  testing::Pair(&t);
  testing::ResultRandom(&t, rng, 0, false);
  const int points_before = BuildField(t).entrants[4].points;
  ASSERT_TRUE(WithdrawPlayer(&t, "p5").ok());
  for (int r = 2; r <= 4; ++r) {
    testing::Pair(&t);
    for (const v1::Pairing& p : t.round(r - 1).pairings()) {
      EXPECT_NE(p.black(), 4);
      EXPECT_NE(p.white(), 4);
    }
    for (const int b : t.round(r - 1).byes()) EXPECT_NE(b, 4);
    testing::ResultRandom(&t, rng, 0, false);
  }
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Row(*s, "p5").points, points_before);
  EXPECT_EQ(Row(*s, "p5").games, 1);
}

TEST(Crosstable, CellsPerRound) {
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 3);
  PlayRoundRobin(&t, {{{0, 1}, 1}, {{0, 2}, 1}, {{1, 2}, 0}});
  auto x = GetCrosstable(t);
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_EQ(x->rounds, 3);
  ASSERT_EQ(x->rows.size(), 3u);
  int byes = 0;
  for (const CrossRow& row : x->rows) {
    ASSERT_EQ(row.cells.size(), 3u);
    for (const CrossCell& c : row.cells) {
      if (c.result == "bye") {
        ++byes;
        continue;
      }
      EXPECT_GE(c.opponent, 0);
      EXPECT_TRUE(c.colour == 'b' || c.colour == 'w');
      EXPECT_TRUE(c.result == "+" || c.result == "-" || c.result == "=");
      EXPECT_GT(c.opponent_rank, 0);
    }
  }
  EXPECT_EQ(byes, 3);
  // p1: 2 + 2 (beat p2 and p3) + 2 (bye) = 6.
  EXPECT_EQ(x->rows[0].name, "p1");
  EXPECT_EQ(x->rows[0].points, 6);
  EXPECT_EQ(x->rows[0].rank, 1);
}

}  // namespace
}  // namespace qipu::tournament

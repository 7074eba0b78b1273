// The API as the commands use it: validation, errors that name what is
// wrong, transactions, best-of, team challenge, Swiss plus knockout, team
// events, and messages read back corrupted.
#include "tournament/tournament.h"

#include <random>

#include "gtest/gtest.h"
#include "tests/tournament/driver.h"
#include "tournament/outcome.h"

namespace qipu::tournament {
namespace {

using testing::MakeEvent;
using testing::Pair;
using testing::System;

TEST(CreateTournament, RejectsBadOptions) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
  EXPECT_EQ(CreateTournament(o).status().code(),
            absl::StatusCode::kInvalidArgument);  // no name
  o.name = "x";
  EXPECT_TRUE(CreateTournament(o).ok());
  TournamentOptions b = System(v1::TOURNAMENT_SYSTEM_BEST_OF);
  b.name = "x";
  for (const int n : {0, 2, 4, 9}) {
    b.best_of = n;
    EXPECT_EQ(CreateTournament(b).status().code(),
              absl::StatusCode::kInvalidArgument)
        << n;
  }
  b.best_of = 5;
  EXPECT_TRUE(CreateTournament(b).ok());
  TournamentOptions k = System(v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT);
  k.name = "x";
  k.knockout_size = 6;
  EXPECT_FALSE(CreateTournament(k).ok());
  TournamentOptions team = System(v1::TOURNAMENT_SYSTEM_KNOCKOUT);
  team.name = "x";
  team.teams = true;
  team.boards = 3;
  EXPECT_FALSE(CreateTournament(team).ok());
  TournamentOptions none;
  none.name = "x";
  EXPECT_FALSE(CreateTournament(none).ok());
  none.system = static_cast<v1::TournamentSystem>(99);
  EXPECT_FALSE(CreateTournament(none).ok());
}

TEST(AddPlayer, ValidatesAndIsTransactional) {
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_SWISS), 4);
  const std::string before = t.SerializeAsString();
  PlayerEntry dup;
  dup.name = "p1";
  EXPECT_EQ(AddPlayer(&t, dup).status().code(),
            absl::StatusCode::kInvalidArgument);
  PlayerEntry bad;
  bad.name = "q";
  bad.rank = "12x";
  EXPECT_EQ(AddPlayer(&t, bad).status().code(),
            absl::StatusCode::kInvalidArgument);
  bad.rank = "3d";
  bad.rating = 99999;
  EXPECT_FALSE(AddPlayer(&t, bad).ok());
  EXPECT_EQ(t.SerializeAsString(), before);
  Pair(&t);
  PlayerEntry late;
  late.name = "late";
  // A Swiss takes late entries (desk_test.cc); a knockout does not.
  v1::Tournament k = MakeEvent(System(v1::TOURNAMENT_SYSTEM_KNOCKOUT), 4);
  Pair(&k);
  EXPECT_EQ(AddPlayer(&k, late).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(FindPlayer(t, "nobody").status().code(),
            absl::StatusCode::kNotFound);
  v1::Tournament blank;
  EXPECT_EQ(AddPlayer(&blank, late).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(RankStrength, Ranks) {
  EXPECT_EQ(*RankStrength("1k"), 0);
  EXPECT_EQ(*RankStrength("15k"), -14);
  EXPECT_EQ(*RankStrength("3D"), 3);
  EXPECT_EQ(*RankStrength("2p"), 12);
  EXPECT_FALSE(RankStrength("0d").ok());
  EXPECT_FALSE(RankStrength("d").ok());
  EXPECT_FALSE(RankStrength("").ok());
}

TEST(PairNextRound, RefusesWhileResultsAreMissing) {
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_SWISS), 8);
  Pair(&t);
  ASSERT_TRUE(SetResult(&t, 1, 1, v1::GAME_RESULT_BLACK_WINS).ok());
  ASSERT_TRUE(SetResult(&t, 1, 3, v1::GAME_RESULT_DRAW).ok());
  const std::string before = t.SerializeAsString();
  auto report = PairNextRound(&t, PairingOptions());
  ASSERT_EQ(report.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(report.status().message(),
            "round 1 is not complete: no result at table 2, table 4");
  EXPECT_EQ(t.SerializeAsString(), before);
}

TEST(SetResult, NamesWhatIsWrong) {
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_SWISS), 4);
  Pair(&t);
  absl::Status s = SetResult(&t, 9, 1, v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "round 9 table 1: no such round (1 paired)");
  s = SetResult(&t, 1, 3, v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(s.message(), "round 1 table 3: no such table (round 1 has 2)");
  s = SetResult(&t, 1, 1, static_cast<v1::GameResult>(42));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "round 1 table 1: result 42 is not a result");
  s = SetResult(&t, 1, 1, v1::GAME_RESULT_BLACK_WINS, 2);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(SetResult(&t, 0, 0, v1::GAME_RESULT_DRAW).code() ==
              absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(SetResult(&t, -5, 1, v1::GAME_RESULT_DRAW).code() ==
              absl::StatusCode::kInvalidArgument);
}

TEST(GameResult, ParseAndFormat) {
  for (int v = v1::GAME_RESULT_BLACK_WINS; v <= v1::GAME_RESULT_VOID; ++v) {
    const auto r = static_cast<v1::GameResult>(v);
    auto parsed = ParseGameResult(GameResultText(r));
    ASSERT_TRUE(parsed.ok()) << GameResultText(r);
    EXPECT_EQ(*parsed, r);
  }
  EXPECT_EQ(*ParseGameResult("B+3.5"), v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(*ParseGameResult("W+R"), v1::GAME_RESULT_WHITE_WINS);
  EXPECT_EQ(*ParseGameResult("W+Time"), v1::GAME_RESULT_WHITE_WINS);
  EXPECT_EQ(*ParseGameResult("b+F"), v1::GAME_RESULT_BLACK_FORFEIT_WIN);
  EXPECT_EQ(*ParseGameResult("0"), v1::GAME_RESULT_DRAW);
  EXPECT_FALSE(ParseGameResult("B+-2").ok());
  EXPECT_FALSE(ParseGameResult("X+").ok());
  EXPECT_FALSE(ParseGameResult("").ok());
  for (int v = v1::TOURNAMENT_SYSTEM_ROUND_ROBIN;
       v <= v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE; ++v) {
    const auto s = static_cast<v1::TournamentSystem>(v);
    EXPECT_EQ(*ParseSystem(SystemName(s)), s);
  }
  EXPECT_FALSE(ParseSystem("mcmahon").ok());
}

TEST(Withdrawal, BeforeTheStartTheDrawIsMadeWithoutThePlayer) {
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 5);
  ASSERT_TRUE(WithdrawPlayer(&t, "p2").ok());
  EXPECT_TRUE(t.players(1).removed());
  EXPECT_EQ(WithdrawPlayer(&t, "p2").code(),
            absl::StatusCode::kFailedPrecondition);
  Pair(&t);
  // Four entrants: 3 rounds, no byes, p2 nowhere.
  EXPECT_EQ(t.rounds(), 3u);
  EXPECT_EQ(t.round(0).byes_size(), 0);
  EXPECT_EQ(t.round(0).pairings_size(), 2);
  for (const v1::Pairing& p : t.round(0).pairings()) {
    EXPECT_NE(p.black(), 1);
    EXPECT_NE(p.white(), 1);
  }
  EXPECT_EQ(t.players(1).order(), 0u);
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->rows.size(), 4u);
}

TEST(Withdrawal, PendingGameIsForfeited) {
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_SWISS), 4);
  Pair(&t);
  const v1::Pairing p = t.round(0).pairings(0);
  ASSERT_TRUE(WithdrawPlayer(&t, t.players(p.black()).name()).ok());
  EXPECT_EQ(t.round(0).pairings(0).result(), v1::GAME_RESULT_WHITE_FORFEIT_WIN);
  EXPECT_TRUE(t.round(0).pairings(0).by_withdrawal());
}

TEST(BestOf, EndsWithAMajorityAndColoursAlternate) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_BEST_OF);
  o.best_of = 5;
  v1::Tournament t = MakeEvent(o, 2);
  // p1 wins games 1, 2 and 4; p2 game 3.
  const std::vector<int> winners = {0, 0, 1, 0};
  for (size_t g = 0; g < winners.size(); ++g) {
    ASSERT_FALSE(*IsFinished(t));
    const int r = Pair(&t);
    const v1::Pairing& p = t.round(r - 1).pairings(0);
    if (g > 0) {
      EXPECT_EQ(p.black(), t.round(r - 2).pairings(0).white());
    }
    ASSERT_TRUE(SetResult(&t, r, 1,
                          p.black() == winners[g] ? v1::GAME_RESULT_BLACK_WINS
                                                  : v1::GAME_RESULT_WHITE_WINS)
                    .ok());
  }
  EXPECT_TRUE(*IsFinished(t));
  EXPECT_EQ(PairNextRound(&t, PairingOptions()).status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto s = GetStandings(t);
  EXPECT_EQ(s->rows[0].name, "p1");
  EXPECT_EQ(s->rows[0].points, 6);
}

TEST(BestOf, LevelAfterAllGamesPlaysOn) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_BEST_OF);
  o.best_of = 3;
  v1::Tournament t = MakeEvent(o, 2);
  // Draw, p1 wins, p2 wins: 3-3 after 3 games; a void game does not count.
  Pair(&t);
  ASSERT_TRUE(SetResult(&t, 1, 1, v1::GAME_RESULT_DRAW).ok());
  Pair(&t);
  ASSERT_TRUE(SetResult(&t, 2, 1, v1::GAME_RESULT_BLACK_WINS).ok());
  Pair(&t);
  ASSERT_TRUE(SetResult(&t, 3, 1, v1::GAME_RESULT_BLACK_WINS).ok());
  EXPECT_FALSE(*IsFinished(t));
  Pair(&t);
  ASSERT_TRUE(SetResult(&t, 4, 1, v1::GAME_RESULT_VOID).ok());
  EXPECT_FALSE(*IsFinished(t));
  Pair(&t);
  ASSERT_TRUE(SetResult(&t, 5, 1, v1::GAME_RESULT_WHITE_WINS).ok());
  EXPECT_TRUE(*IsFinished(t));
}

TEST(TeamChallenge, WinnerStaysOn) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE);
  o.name = "leitai";
  auto t = CreateTournament(o);
  ASSERT_TRUE(t.ok());
  for (const auto& [name, team] :
       std::vector<std::pair<std::string, std::string>>{
           {"a1", "A"}, {"a2", "A"}, {"a3", "A"}, {"b1", "B"}, {"b2", "B"}}) {
    PlayerEntry p;
    p.name = name;
    p.team = team;
    ASSERT_TRUE(AddPlayer(&*t, p).ok());
  }
  PlayerEntry third;
  third.name = "c1";
  third.team = "C";
  EXPECT_FALSE(AddPlayer(&*t, third).ok());
  // a1 beats b1; b2 beats a1 and a2; a3 beats b2: team A wins.
  const std::vector<std::pair<std::string, std::string>> games = {
      {"a1", "b1"}, {"a1", "b2"}, {"a2", "b2"}, {"a3", "b2"}};
  const std::vector<std::string> winners = {"a1", "b2", "b2", "a3"};
  for (size_t g = 0; g < games.size(); ++g) {
    ASSERT_FALSE(*IsFinished(*t));
    const int r = Pair(&*t);
    const v1::Pairing& p = t->round(r - 1).pairings(0);
    const std::string black = t->players(p.black()).name();
    const std::string white = t->players(p.white()).name();
    EXPECT_EQ(std::minmax(black, white),
              std::minmax(games[g].first, games[g].second))
        << "game " << g + 1;
    if (g > 0) {
      // The player who has just come on takes Black.
      const std::string newcomer = g == 1 ? "b2" : g == 2 ? "a2" : "a3";
      EXPECT_EQ(black, newcomer);
    }
    ASSERT_TRUE(SetResult(&*t, r, 1,
                          black == winners[g] ? v1::GAME_RESULT_BLACK_WINS
                                              : v1::GAME_RESULT_WHITE_WINS)
                    .ok());
  }
  EXPECT_TRUE(*IsFinished(*t));
  auto s = GetStandings(*t);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->rows[0].name, "A");
  EXPECT_EQ(s->rows[0].rank, 1);
  EXPECT_EQ(s->rows[0].points, 2);  // a1 and a3 won a game each
  EXPECT_EQ(s->rows[1].name, "B");
  EXPECT_EQ(s->rows[1].points, 2);  // b2 won two
  EXPECT_EQ(s->rows[1].rank, 2);
}

TEST(SwissKnockout, TopFourOfTheSwissPlayTheKnockout) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT);
  o.rounds = 3;
  o.knockout_size = 4;
  v1::Tournament t = MakeEvent(o, 16);
  std::mt19937_64 rng(4);
  for (int r = 1; r <= 3; ++r) {
    Pair(&t);
    testing::ResultRandom(&t, rng, 0, false);
  }
  auto swiss = GetStandings(t);
  ASSERT_TRUE(swiss.ok());
  std::vector<int> top;
  for (int i = 0; i < 4; ++i) top.push_back(swiss->rows[i].entrant);
  ASSERT_EQ(Pair(&t), 4);
  EXPECT_TRUE(t.round(3).knockout_stage());
  ASSERT_EQ(t.round(3).pairings_size(), 2);
  std::set<std::pair<int, int>> games;
  for (const v1::Pairing& p : t.round(3).pairings()) {
    games.insert(std::minmax(p.black(), p.white()));
  }
  // Seeds by the Swiss: 1 v 4, 2 v 3.
  EXPECT_EQ(games,
            (std::set<std::pair<int, int>>{std::minmax(top[0], top[3]),
                                           std::minmax(top[1], top[2])}));
  testing::ResultAll(&t, v1::GAME_RESULT_BLACK_WINS);
  ASSERT_EQ(Pair(&t), 5);
  EXPECT_EQ(t.round(4).pairings_size(), 1);
  testing::ResultAll(&t, v1::GAME_RESULT_WHITE_WINS);
  EXPECT_TRUE(*IsFinished(t));
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->rows[0].entrant, t.round(4).pairings(0).white());
  EXPECT_EQ(s->rows[0].rank, 1);
  EXPECT_EQ(s->rows[1].rank, 2);
  EXPECT_EQ(s->rows[2].rank, 3);
  EXPECT_EQ(s->rows[3].rank, 3);
  EXPECT_EQ(s->rows[4].rank, 5);
  EXPECT_FALSE(s->rows[4].in_knockout);
}

TEST(TeamEvent, SwissBetweenTeamsPairsBoardsWithAlternatingColours) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
  o.teams = true;
  o.boards = 3;
  o.rounds = 2;
  o.name = "teams";
  auto t = CreateTournament(o);
  ASSERT_TRUE(t.ok());
  for (const std::string team : {"A", "B", "C", "D"}) {
    for (int b = 1; b <= 3; ++b) {
      PlayerEntry p;
      p.name = team + std::to_string(b);
      p.team = team;
      ASSERT_TRUE(AddPlayer(&*t, p).ok());
    }
  }
  Pair(&*t);
  ASSERT_EQ(t->round(0).pairings_size(), 2);
  for (const v1::Pairing& p : t->round(0).pairings()) {
    ASSERT_EQ(p.boards_size(), 3);
    for (int b = 0; b < 3; ++b) {
      const v1::BoardGame& g = p.boards(b);
      const int black_team = b % 2 == 0 ? p.black() : p.white();
      EXPECT_EQ(t->players(g.black()).team(), t->teams(black_team).name());
      EXPECT_EQ(static_cast<int>(t->players(g.black()).board()), b + 1);
    }
    // Boards need results one by one; the match follows.
    ASSERT_TRUE(
        SetResult(&*t, 1, p.table(), v1::GAME_RESULT_BLACK_WINS, 1).ok());
    ASSERT_TRUE(
        SetResult(&*t, 1, p.table(), v1::GAME_RESULT_BLACK_WINS, 2).ok());
    EXPECT_EQ(t->round(0).pairings(p.table() - 1).result(),
              v1::GAME_RESULT_UNKNOWN);
    ASSERT_TRUE(SetResult(&*t, 1, p.table(), v1::GAME_RESULT_DRAW, 3).ok());
    // Board 1: team black wins; board 2: team white (holding Black) wins;
    // board 3 drawn: 3-3.
    EXPECT_EQ(t->round(0).pairings(p.table() - 1).result(),
              v1::GAME_RESULT_DRAW);
  }
  EXPECT_EQ(SetResult(&*t, 1, 1, v1::GAME_RESULT_DRAW, 0).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SetResult(&*t, 1, 1, v1::GAME_RESULT_DRAW, 4).code(),
            absl::StatusCode::kInvalidArgument);
  // A team short of players cannot start.
  auto short_team = CreateTournament(o);
  PlayerEntry p;
  p.name = "x1";
  p.team = "X";
  ASSERT_TRUE(AddPlayer(&*short_team, p).ok());
  p.name = "y1";
  p.team = "Y";
  ASSERT_TRUE(AddPlayer(&*short_team, p).ok());
  EXPECT_EQ(PairNextRound(&*short_team, PairingOptions()).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

// Art. 28.4 in a team event: a team that withdraws forfeits its later
// matches on every board (its results stand); a player who withdraws
// forfeits only their own board.
TEST(TeamEvent, WithdrawalsForfeitTheTeamsMatchesOrThePlayersBoard) {
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
  Pair(&*t);
  for (const v1::Pairing& p : t->round(0).pairings()) {
    for (int b = 1; b <= 2; ++b) {
      ASSERT_TRUE(SetResult(&*t, 1, p.table(), v1::GAME_RESULT_DRAW, b).ok());
    }
  }
  EXPECT_EQ(WithdrawTeam(&*t, "Z").code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(WithdrawTeam(&*t, "A").ok());
  EXPECT_EQ(WithdrawTeam(&*t, "A").code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(WithdrawPlayer(&*t, "B2").ok());
  Pair(&*t);
  const auto team = [&](int index) { return t->teams(index).name(); };
  int forfeited_matches = 0;
  int b2_boards = 0;
  for (const v1::Pairing& p : t->round(1).pairings()) {
    const bool a_plays = team(p.black()) == "A" || team(p.white()) == "A";
    for (const v1::BoardGame& g : p.boards()) {
      const std::string black = t->players(g.black()).name();
      const std::string white = t->players(g.white()).name();
      if (a_plays) {
        // Every board is won by the opponent of A, by forfeit.
        const bool a_black = black[0] == 'A';
        EXPECT_EQ(g.result(), a_black ? v1::GAME_RESULT_WHITE_FORFEIT_WIN
                                      : v1::GAME_RESULT_BLACK_FORFEIT_WIN)
            << black << " - " << white;
      } else if (black == "B2" || white == "B2") {
        ++b2_boards;
        EXPECT_EQ(g.result(), black == "B2"
                                  ? v1::GAME_RESULT_WHITE_FORFEIT_WIN
                                  : v1::GAME_RESULT_BLACK_FORFEIT_WIN);
      } else {
        EXPECT_EQ(g.result(), v1::GAME_RESULT_UNKNOWN) << black;
      }
    }
    if (a_plays) {
      ++forfeited_matches;
      EXPECT_TRUE(p.result() == v1::GAME_RESULT_BLACK_FORFEIT_WIN ||
                  p.result() == v1::GAME_RESULT_WHITE_FORFEIT_WIN)
          << p.result();
    }
  }
  EXPECT_EQ(forfeited_matches, 1);
  // The drawing of lots of "teams" pairs B against C or D in round 2.
  EXPECT_EQ(b2_boards, 1);
  // A's drawn match of round 1 stands: 1 match point, 2 board points.
  auto s = GetStandings(*t);
  ASSERT_TRUE(s.ok()) << s.status();
  for (const StandingRow& row : s->rows) {
    if (row.name != "A") continue;
    EXPECT_TRUE(row.withdrawn);
    EXPECT_EQ(row.points, 1);
    EXPECT_EQ(row.board_points, 2);
  }
}

TEST(ValidateTournament, CorruptMessagesAreErrorsNotCrashes) {
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_SWISS), 6);
  Pair(&t);
  v1::Tournament bad = t;
  bad.mutable_round(0)->mutable_pairings(0)->set_black(99);
  EXPECT_EQ(ValidateTournament(bad).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(GetStandings(bad).ok());
  EXPECT_FALSE(PairNextRound(&bad, PairingOptions()).ok());
  EXPECT_FALSE(IsFinished(bad).ok());
  EXPECT_FALSE(GetCrosstable(bad).ok());
  EXPECT_FALSE(WithdrawPlayer(&bad, "p1").ok());
  bad = t;
  bad.mutable_round(0)->set_number(5);
  EXPECT_FALSE(ValidateTournament(bad).ok());
  bad = t;
  bad.mutable_round(0)->add_byes(-3);
  EXPECT_FALSE(ValidateTournament(bad).ok());
  bad = t;
  bad.mutable_players(1)->set_name("p1");
  EXPECT_FALSE(ValidateTournament(bad).ok());
  bad = t;
  bad.mutable_round(0)->mutable_pairings(0)->set_result(
      static_cast<v1::GameResult>(77));
  EXPECT_FALSE(ValidateTournament(bad).ok());
  EXPECT_TRUE(ValidateTournament(t).ok());
}

TEST(DrawLot, FixedAndSpread) {
  EXPECT_EQ(DrawLot(1, 0), DrawLot(1, 0));
  EXPECT_NE(DrawLot(1, 0), DrawLot(1, 1));
  EXPECT_NE(DrawLot(1, 0), DrawLot(2, 0));
}

}  // namespace
}  // namespace qipu::tournament

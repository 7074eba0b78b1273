// Elimination: bracket order, byes to the best seeds, single, double and
// multi-loss elimination run through the API, replays after draws.
#include "tournament/elimination.h"

#include <map>
#include <random>
#include <set>

#include "gtest/gtest.h"
#include "tests/tournament/driver.h"
#include "tournament/tournament.h"

namespace qipu::tournament {
namespace {

using testing::MakeEvent;
using testing::Pair;
using testing::System;

TEST(BracketOrder, StandardOrder) {
  EXPECT_EQ(BracketOrder(1), (std::vector<int>{1}));
  EXPECT_EQ(BracketOrder(2), (std::vector<int>{1, 2}));
  EXPECT_EQ(BracketOrder(4), (std::vector<int>{1, 4, 2, 3}));
  EXPECT_EQ(BracketOrder(8), (std::vector<int>{1, 8, 4, 5, 2, 7, 3, 6}));
  EXPECT_EQ(BracketOrder(16), (std::vector<int>{1, 16, 8, 9, 4, 13, 5, 12, 2,
                                                15, 7, 10, 3, 14, 6, 11}));
  EXPECT_TRUE(BracketOrder(6).empty());
  EXPECT_EQ(BracketSize(5), 8);
  EXPECT_EQ(BracketSize(8), 8);
  EXPECT_EQ(BracketSize(1), 1);
}

// Player index of seed s (p1 is seed 1 by rating).
int Seed(int s) { return s - 1; }

std::set<std::pair<int, int>> Games(const v1::Round& r) {
  std::set<std::pair<int, int>> games;
  for (const v1::Pairing& p : r.pairings()) {
    games.insert(
        {std::min(p.black(), p.white()), std::max(p.black(), p.white())});
  }
  return games;
}

TEST(Knockout, SixPlayersByesToTheTwoBestSeeds) {
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_KNOCKOUT), 6);
  ASSERT_EQ(Pair(&t), 1);
  // Bracket of 8: 1-(8) 4-5 2-(7) 3-6.
  EXPECT_EQ(Games(t.round(0)), (std::set<std::pair<int, int>>{
                                   {Seed(4), Seed(5)}, {Seed(3), Seed(6)}}));
  EXPECT_EQ(std::set<int>(t.round(0).byes().begin(), t.round(0).byes().end()),
            (std::set<int>{Seed(1), Seed(2)}));
  // The lower seed wins every game.
  const auto upset = [&](int round) {
    for (const v1::Pairing& p : t.round(round - 1).pairings()) {
      const bool black_lower = p.black() > p.white();
      ASSERT_TRUE(SetResult(&t, round, p.table(),
                            black_lower ? v1::GAME_RESULT_BLACK_WINS
                                        : v1::GAME_RESULT_WHITE_WINS)
                      .ok());
    }
  };
  upset(1);  // 5 and 6 go through
  ASSERT_EQ(Pair(&t), 2);
  EXPECT_EQ(Games(t.round(1)), (std::set<std::pair<int, int>>{
                                   {Seed(1), Seed(5)}, {Seed(2), Seed(6)}}));
  EXPECT_EQ(t.round(1).byes_size(), 0);
  upset(2);
  ASSERT_EQ(Pair(&t), 3);
  EXPECT_EQ(Games(t.round(2)),
            (std::set<std::pair<int, int>>{{Seed(5), Seed(6)}}));
  upset(3);
  EXPECT_TRUE(*IsFinished(t));
  auto report = PairNextRound(&t, PairingOptions());
  EXPECT_EQ(report.status().code(), absl::StatusCode::kFailedPrecondition);
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->rows[0].name, "p6");
  EXPECT_EQ(s->rows[0].rank, 1);
  EXPECT_EQ(s->rows[1].name, "p5");
  EXPECT_EQ(s->rows[1].rank, 2);
  // The semi-final losers share third place.
  EXPECT_EQ(s->rows[2].rank, 3);
  EXPECT_EQ(s->rows[3].rank, 3);
}

TEST(Knockout, DrawIsReplayedWithColoursReversed) {
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_KNOCKOUT), 4);
  Pair(&t);
  const v1::Pairing first = t.round(0).pairings(0);
  ASSERT_TRUE(SetResult(&t, 1, 1, v1::GAME_RESULT_DRAW).ok());
  ASSERT_TRUE(SetResult(&t, 1, 2, v1::GAME_RESULT_BLACK_WINS).ok());
  ASSERT_EQ(Pair(&t), 2);
  ASSERT_TRUE(t.round(1).replay());
  ASSERT_EQ(t.round(1).pairings_size(), 1);
  EXPECT_EQ(t.round(1).pairings(0).black(), first.white());
  EXPECT_EQ(t.round(1).pairings(0).white(), first.black());
  // A void replay is replayed again.
  ASSERT_TRUE(SetResult(&t, 2, 1, v1::GAME_RESULT_VOID).ok());
  ASSERT_EQ(Pair(&t), 3);
  EXPECT_TRUE(t.round(2).replay());
  ASSERT_TRUE(SetResult(&t, 3, 1, v1::GAME_RESULT_WHITE_WINS).ok());
  ASSERT_EQ(Pair(&t), 4);
  EXPECT_FALSE(t.round(3).replay());
  EXPECT_EQ(t.round(3).pairings_size(), 1);  // the final
  // Earlier results are fixed once a later round is paired.
  EXPECT_EQ(SetResult(&t, 1, 2, v1::GAME_RESULT_WHITE_WINS).code(),
            absl::StatusCode::kFailedPrecondition);
}

// Runs an elimination with random decisive results to the end; returns the
// standings.
Standings RunElimination(v1::Tournament& t, std::mt19937_64& rng,
                         int max_rounds) {
  for (int r = 1; r <= max_rounds; ++r) {
    auto finished = IsFinished(t);
    EXPECT_TRUE(finished.ok());
    if (*finished) break;
    Pair(&t);
    testing::ResultRandom(&t, rng, /*rare=*/10, /*draws=*/true);
  }
  EXPECT_TRUE(*IsFinished(t));
  auto s = GetStandings(t);
  EXPECT_TRUE(s.ok()) << s.status();
  return *s;
}

TEST(Knockout, SingleEliminationAnyFieldSize) {
  std::mt19937_64 rng(11);
  for (int n = 2; n <= 40; ++n) {
    SCOPED_TRACE(n);
    v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_KNOCKOUT), n);
    const Standings s = RunElimination(t, rng, 60);
    // Byes only in round 1, exactly the best seeds, filling the bracket.
    const int size = BracketSize(n);
    std::set<int> byes(t.round(0).byes().begin(), t.round(0).byes().end());
    EXPECT_EQ(static_cast<int>(byes.size()), size - n);
    for (int i = 0; i < size - n; ++i) EXPECT_TRUE(byes.count(Seed(i + 1)));
    int champions = 0;
    for (const StandingRow& row : s.rows) {
      if (row.out_in_round == 0) {
        ++champions;
        EXPECT_EQ(row.rank, 1);
        EXPECT_EQ(row.knockout_losses, 0);
      } else {
        EXPECT_EQ(row.knockout_losses, 1) << row.name;
      }
    }
    // Both-lose can leave nobody standing.
    EXPECT_LE(champions, 1);
  }
}

TEST(Knockout, DoubleAndMultiLossElimination) {
  std::mt19937_64 rng(12);
  for (const int losses : {2, 3}) {
    for (int n = 2; n <= 24; ++n) {
      SCOPED_TRACE(absl::StrCat(n, " players, out after ", losses));
      TournamentOptions o =
          System(losses == 2 ? v1::TOURNAMENT_SYSTEM_DOUBLE_KNOCKOUT
                             : v1::TOURNAMENT_SYSTEM_KNOCKOUT);
      if (losses != 2) o.losses = losses;
      v1::Tournament t = MakeEvent(o, n);
      const Standings s = RunElimination(t, rng, 400);
      int still_in = 0;
      for (const StandingRow& row : s.rows) {
        if (row.out_in_round == 0) {
          ++still_in;
          EXPECT_LT(row.knockout_losses, losses);
        } else {
          EXPECT_EQ(row.knockout_losses, losses) << row.name;
        }
      }
      EXPECT_LE(still_in, 1);
    }
  }
}

TEST(Knockout, DoubleEliminationFinalIsReplayedWhenTheUnbeatenLoses) {
  v1::Tournament t =
      MakeEvent(System(v1::TOURNAMENT_SYSTEM_DOUBLE_KNOCKOUT), 2);
  Pair(&t);  // p1 v p2
  const auto win_for = [&](int round, int winner) {
    const v1::Pairing& p = t.round(round - 1).pairings(0);
    ASSERT_TRUE(SetResult(&t, round, 1,
                          p.black() == winner ? v1::GAME_RESULT_BLACK_WINS
                                              : v1::GAME_RESULT_WHITE_WINS)
                    .ok());
  };
  win_for(1, Seed(1));
  ASSERT_EQ(Pair(&t), 2);  // p2 has one loss: they meet again
  win_for(2, Seed(2));     // now both have one loss
  ASSERT_EQ(Pair(&t), 3);  // the deciding game
  win_for(3, Seed(2));
  EXPECT_TRUE(*IsFinished(t));
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->rows[0].name, "p2");
}

}  // namespace
}  // namespace qipu::tournament

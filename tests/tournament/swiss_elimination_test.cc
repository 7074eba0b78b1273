// Swiss with multi-loss elimination (積分編排加淘汰, art. 26.4), checked by
// code independent of the library: who is still in (losses counted from
// the stored results), an even number paired every round and no bye, the
// player cut when the count is odd being the lowest of those still in by
// points, SOS, warnings and lots, recomputed here; the standings order;
// and the recommended number of rounds (the rounding read as "the
// smallest odd number not below knockout rounds x 1.5").
#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/driver.h"
#include "tournament/outcome.h"
#include "tournament/swiss.h"
#include "tournament/tournament.h"

namespace qipu::tournament {
namespace {

using ::testing::HasSubstr;
using testing::MakeEvent;

TournamentOptions Elimination(int after, int rounds) {
  TournamentOptions o;
  o.name = "elim";
  o.system = v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION;
  o.eliminate_after = after;
  o.rounds = rounds;
  return o;
}

// Independent records from the stored rounds.
struct Record {
  int points = 0;
  int losses = 0;
  std::vector<int> opponents;  // counted games only
};

std::map<int, Record> Records(const v1::Tournament& t) {
  std::map<int, Record> rec;
  for (int i = 0; i < t.players_size(); ++i) rec[i];
  for (const v1::Round& r : t.round()) {
    for (const v1::Pairing& p : r.pairings()) {
      const v1::GameResult g = p.result();
      int black = 0, white = 0;  // points
      bool counts = true, black_lost = false, white_lost = false;
      switch (g) {
        case v1::GAME_RESULT_BLACK_WINS:
        case v1::GAME_RESULT_BLACK_FORFEIT_WIN:
          black = 2;
          white_lost = true;
          break;
        case v1::GAME_RESULT_WHITE_WINS:
        case v1::GAME_RESULT_WHITE_FORFEIT_WIN:
          white = 2;
          black_lost = true;
          break;
        case v1::GAME_RESULT_DRAW:
          black = white = 1;
          break;
        case v1::GAME_RESULT_BOTH_LOSE:
          black_lost = white_lost = true;
          break;
        default:
          counts = false;
      }
      if (!counts) continue;
      rec[p.black()].points += black;
      rec[p.white()].points += white;
      rec[p.black()].losses += black_lost;
      rec[p.white()].losses += white_lost;
      rec[p.black()].opponents.push_back(p.white());
      rec[p.white()].opponents.push_back(p.black());
    }
    for (const int b : r.byes()) rec[b].points += 2;
  }
  return rec;
}

TEST(SwissElimination, OptionsAndAnOddStartAreRefusedWithTheReason) {
  EXPECT_THAT(
      std::string(CreateTournament(Elimination(0, 5)).status().message()),
      HasSubstr("--eliminate-after 1..8"));
  TournamentOptions swiss = Elimination(2, 5);
  swiss.system = v1::TOURNAMENT_SYSTEM_SWISS;
  EXPECT_EQ(CreateTournament(swiss).status().message(),
            "eliminate_after is for swiss-elimination (積分編排加淘汰, art. "
            "26.4)");
  EXPECT_EQ(*ParseSystem("swiss-elimination"),
            v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION);
  v1::Tournament t = MakeEvent(Elimination(2, 5), 13);
  auto r = PairNextRound(&t, PairingOptions());
  ASSERT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(r.status().message(),
            "swiss-elimination keeps the number playing even (art. 26.4: "
            "始終要保持參賽人數為偶數); 13 registered: register or withdraw "
            "one before round 1");
  // Withdrawn before the start: the draw is made without them (28.1).
  ASSERT_TRUE(WithdrawPlayer(&t, "p13").ok());
  EXPECT_TRUE(PairNextRound(&t, PairingOptions()).ok());
}

// Plays random swiss-elimination events to the end, checking each round.
TEST(SwissElimination, EvenFieldsShrinkByLossesAndTheCut) {
  std::mt19937_64 rng(264);
  int cuts = 0;
  int events = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 6 + 2 * static_cast<int>(rng() % 12);
    const int after = 1 + static_cast<int>(rng() % 3);
    TournamentOptions o = Elimination(after, 12);
    o.drawing_lots = rng();
    v1::Tournament t = MakeEvent(o, n);
    ++events;
    for (int round = 1; round <= 12; ++round) {
      auto finished = IsFinished(t);
      ASSERT_TRUE(finished.ok());
      // Now and then a withdrawal (which can make the count odd).
      if (round > 1 && rng() % 4 == 0) {
        const int who = static_cast<int>(rng() % n);
        if (t.players(who).withdrawn_at_round() == 0) {
          ASSERT_TRUE(WithdrawPlayer(&t, t.players(who).name()).ok());
        }
      }
      const std::map<int, Record> rec = Records(t);
      std::vector<int> in;
      for (int i = 0; i < n; ++i) {
        const bool gone = t.players(i).withdrawn_at_round() != 0;
        bool cut = false;
        for (const v1::Round& r : t.round()) {
          cut = cut || std::count(r.cut().begin(), r.cut().end(), i) > 0;
        }
        if (!gone && !cut && rec.at(i).losses < after) in.push_back(i);
      }
      auto report = PairNextRound(&t, PairingOptions());
      if (in.size() <= 1) {
        EXPECT_TRUE(*IsFinished(t));
        ASSERT_FALSE(report.ok());
        EXPECT_THAT(std::string(report.status().message()),
                    HasSubstr("the event is over"));
        break;
      }
      ASSERT_TRUE(report.ok()) << report.status();
      if (!report->paired) {
        // Too few left to pair without a repeat: accept one.
        PairingOptions allow;
        allow.allow_repeats = true;
        report = PairNextRound(&t, allow);
        ASSERT_TRUE(report.ok() && report->paired);
      }
      const v1::Round& r = t.round(round - 1);
      EXPECT_EQ(r.byes_size(), 0) << "no bye: the field is even";
      std::set<int> paired;
      for (const v1::Pairing& p : r.pairings()) {
        paired.insert(p.black());
        paired.insert(p.white());
      }
      std::set<int> expected(in.begin(), in.end());
      if (in.size() % 2 == 1) {
        // The cut: the lowest by points, SOS, warnings, lots.
        ASSERT_EQ(r.cut_size(), 1);
        ++cuts;
        const auto key = [&](int i) {
          int sos = 0;
          for (const int o : rec.at(i).opponents) sos += rec.at(o).points;
          return std::make_tuple(-rec.at(i).points, -sos,
                                 static_cast<int>(t.players(i).warnings()),
                                 DrawLot(t.drawing_lots(), i), i);
        };
        const int lowest =
            *std::max_element(in.begin(), in.end(),
                              [&](int a, int b) { return key(a) < key(b); });
        EXPECT_EQ(r.cut(0), lowest);
        expected.erase(lowest);
      } else {
        EXPECT_EQ(r.cut_size(), 0);
      }
      EXPECT_EQ(paired, expected) << "round " << round;
      EXPECT_EQ(paired.size() % 2, 0u);
      testing::ResultRandom(&t, rng, /*rare=*/30);
    }
    // Standings: still in first, then by the round they went out, latest
    // first, recomputed here.
    auto s = GetStandings(t);
    ASSERT_TRUE(s.ok()) << s.status();
    int last_out = 1 << 20;
    for (const StandingRow& row : s->rows) {
      const int out = row.out_in_round == 0 ? (1 << 20) : row.out_in_round;
      EXPECT_LE(out, last_out) << row.name;
      last_out = out;
    }
  }
  EXPECT_EQ(events, 60);
  EXPECT_GT(cuts, 5);  // the cut was exercised
}

TEST(RecommendedSwissRounds, TheRoundingReadAsTheSmallestOddNotBelow) {
  // 13 players: a knockout of 4 rounds, x 1.5 = 6, made odd: 7.
  EXPECT_EQ(RecommendedSwissRounds(13), 7);
  // 17..32 players: 5 knockout rounds, x 1.5 = 7.5: the smallest odd
  // number not below 7.5 is 9.
  EXPECT_EQ(RecommendedSwissRounds(17), 9);
  EXPECT_EQ(RecommendedSwissRounds(32), 9);
  // The event's `rounds` overrides it.
  TournamentOptions o;
  o.name = "x";
  o.system = v1::TOURNAMENT_SYSTEM_SWISS;
  o.rounds = 5;
  v1::Tournament t = MakeEvent(o, 13);
  testing::Pair(&t);
  EXPECT_EQ(t.rounds(), 5u);
  o.rounds = 0;
  v1::Tournament d = MakeEvent(o, 13);
  testing::Pair(&d);
  EXPECT_EQ(d.rounds(), 7u);
}

}  // namespace
}  // namespace qipu::tournament

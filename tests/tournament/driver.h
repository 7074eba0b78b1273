// Drives tournaments through the public API the way the commands do: make
// one, register players, pair, enter results.
#ifndef QIPU_TESTS_TOURNAMENT_DRIVER_H_
#define QIPU_TESTS_TOURNAMENT_DRIVER_H_

#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tournament/tournament.h"

namespace qipu::tournament::testing {

// A tournament of `n` players "p1".."pn" with ratings 2000 - 10 i (so p1 is
// seed 1).
inline v1::Tournament MakeEvent(TournamentOptions options, int n) {
  if (options.name.empty()) options.name = "test";
  auto t = CreateTournament(options);
  EXPECT_TRUE(t.ok()) << t.status();
  for (int i = 1; i <= n; ++i) {
    PlayerEntry p;
    p.name = absl::StrCat("p", i);
    p.rating = 2000 - 10 * i;
    auto index = AddPlayer(&*t, p);
    EXPECT_TRUE(index.ok()) << index.status();
  }
  return *t;
}

inline TournamentOptions System(v1::TournamentSystem system) {
  TournamentOptions o;
  o.system = system;
  return o;
}

// Pairs the next round, which must succeed; returns its number.
inline int Pair(v1::Tournament* t) {
  auto report = PairNextRound(t, PairingOptions());
  EXPECT_TRUE(report.ok()) << report.status();
  if (!report.ok()) return 0;
  EXPECT_TRUE(report->paired);
  return report->round;
}

// Enters `result` at every table of the last round still without one.
inline void ResultAll(v1::Tournament* t, v1::GameResult result) {
  const int r = t->round_size();
  for (const v1::Pairing& p : t->round(r - 1).pairings()) {
    if (p.result() != v1::GAME_RESULT_UNKNOWN) continue;
    const absl::Status s = SetResult(t, r, p.table(), result);
    EXPECT_TRUE(s.ok()) << s;
  }
}

// A random result: wins mostly, sometimes draws, rarely forfeits or both
// lose (with `rare` out of 1000).
inline v1::GameResult RandomResult(std::mt19937_64& rng, int rare = 20,
                                   bool draws = true) {
  const int x = static_cast<int>(rng() % 1000);
  if (x < rare) {
    static constexpr v1::GameResult kRare[] = {
        v1::GAME_RESULT_BLACK_FORFEIT_WIN, v1::GAME_RESULT_WHITE_FORFEIT_WIN,
        v1::GAME_RESULT_BOTH_LOSE};
    return kRare[rng() % 3];
  }
  if (draws && x < rare + 60) return v1::GAME_RESULT_DRAW;
  return rng() % 2 ? v1::GAME_RESULT_BLACK_WINS : v1::GAME_RESULT_WHITE_WINS;
}

// Enters a random result at every table of the last round without one.
inline void ResultRandom(v1::Tournament* t, std::mt19937_64& rng, int rare = 20,
                         bool draws = true) {
  const int r = t->round_size();
  for (const v1::Pairing& p : t->round(r - 1).pairings()) {
    if (p.result() != v1::GAME_RESULT_UNKNOWN) continue;
    const absl::Status s =
        SetResult(t, r, p.table(), RandomResult(rng, rare, draws));
    EXPECT_TRUE(s.ok()) << s;
  }
}

}  // namespace qipu::tournament::testing

#endif  // QIPU_TESTS_TOURNAMENT_DRIVER_H_

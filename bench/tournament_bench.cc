// Google Benchmark program for the tournament engine (tournament/):
//  - SwissRound/N/R: PairSwiss() of one round of N players after R rounds
//    of random results (the target: 1,000 players under 2 s;
//    OpenGotha splits fields above 600);
//  - PairNextRound/N/R: the same through the API (copy of the message,
//    validation, the field rebuilt, the round made) as the commands call it.
// Fixed seeds; the set-up rounds are not timed.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "tournament/field.h"
#include "tournament/swiss.h"
#include "tournament/tournament.h"

namespace qipu::tournament {
namespace {

// A Swiss of `players` after `rounds` rounds of random decisive results.
v1::Tournament MakeSwiss(int players, int rounds) {
  TournamentOptions o;
  o.name = "bench";
  o.system = v1::TOURNAMENT_SYSTEM_SWISS;
  o.rounds = rounds + 1;
  v1::Tournament t = *CreateTournament(o);
  for (int i = 0; i < players; ++i) {
    PlayerEntry p;
    p.name = absl::StrCat("p", i + 1);
    p.rating = 2400 - i;
    (void)AddPlayer(&t, p);
  }
  std::mt19937_64 rng(1);
  for (int r = 1; r <= rounds; ++r) {
    PairingOptions allow;
    allow.allow_repeats = true;
    (void)PairNextRound(&t, allow);
    for (const v1::Pairing& p : t.round(r - 1).pairings()) {
      (void)SetResult(
          &t, r, p.table(),
          rng() % 2 ? v1::GAME_RESULT_BLACK_WINS : v1::GAME_RESULT_WHITE_WINS);
    }
  }
  return t;
}

void BM_SwissRound(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  const int rounds = static_cast<int>(state.range(1));
  const v1::Tournament t = MakeSwiss(players, rounds);
  const Field field = BuildField(t);
  std::vector<int> all;
  for (const Entrant& e : field.entrants) all.push_back(e.index);
  SwissOptions options;
  int repeats = 0;
  for (auto _ : state) {
    auto pairing = PairSwiss(field, all, rounds + 1, options);
    if (!pairing.ok()) {
      state.SkipWithError(std::string(pairing.status().message()).c_str());
      break;
    }
    repeats = pairing->repeats_needed;
    benchmark::DoNotOptimize(pairing->draft.games.data());
  }
  state.counters["repeats"] = repeats;
}
BENCHMARK(BM_SwissRound)
    ->Args({200, 4})
    ->Args({1000, 0})
    ->Args({1000, 4})
    ->Args({1000, 9})
    ->Unit(benchmark::kMillisecond);

void BM_PairNextRound(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  const int rounds = static_cast<int>(state.range(1));
  const v1::Tournament t = MakeSwiss(players, rounds);
  for (auto _ : state) {
    v1::Tournament copy = t;
    auto report = PairNextRound(&copy, PairingOptions());
    if (!report.ok()) {
      state.SkipWithError(std::string(report.status().message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(report->proposal.pairings_size());
  }
}
BENCHMARK(BM_PairNextRound)->Args({1000, 4})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace qipu::tournament

BENCHMARK_MAIN();
